/** The bench's client of the /weapi/ protocol: one call over HTTP, as a browser or an integrating system makes it. */

/** What the bench reads of an answer. */
export interface Envelope {
  return_code: string;
  return_msg: string;
  data?: { token?: string; items?: unknown; total?: number };
}

export async function call(url: string, apiPath: string, body: Record<string, unknown>, token?: string, headers: Record<string, string> = {}): Promise<Envelope> {
  const res = await fetch(`${url}/weapi/${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-token": token } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}

/** One call of a signed-in account that must succeed: its answer's items. */
export type Step = (method: string, payload: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * A term's bill for a class, as a school sets it up: an activity from today billing the class one fixed item,
 * opened, and a payer QR code of it. Answers the activity's id and the code (the payer page is /h5/{code}).
 */
export async function billClass(step: Step, schId: number, classId: number, title: string, amount: string): Promise<{ activityId: number; code: string }> {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date());
  const activity = await step("activityadd", {
    sch_id: schId,
    title,
    start_date: today,
    end_date: "2099-12-31",
    target: "classes",
    class_ids: [classId],
    items: [{ title: "Tuition", amount, amount_mode: "fixed", required: "Y" }],
  });
  await step("activityact", { id: activity.id, act: "open" });
  const qr = await step("qrchnladd", { sch_id: schId, activity_id: activity.id, title });
  return { activityId: Number(activity.id), code: String(qr.code) };
}
