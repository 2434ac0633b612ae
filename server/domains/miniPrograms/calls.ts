/** The list of an app's calls: every call of the publisher and every push of the platform, with what was answered. */
import type { DbOrTx } from "../../db/client";
import { miniProgramCalls } from "../../db/schema";
import type { Row } from "../../engine/hooks";

/** Records a call of the app (or a push for it) and its answer (an error code and message for a refusal). */
export async function recordCall(db: DbOrTx, app: Row, call: string, request: Row, errcode: number, answer: unknown, at: Date): Promise<void> {
  await db.insert(miniProgramCalls).values({
    app_id: Number(app.id),
    sysid: Number(app.sysid),
    call,
    request: JSON.stringify(request).slice(0, 4000),
    errcode,
    answer: JSON.stringify(answer).slice(0, 2000),
    at,
  });
}

