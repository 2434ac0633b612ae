/**
 * The help page every signed-in user reads (`helpcenter`): the help centre's categories and questions in use
 * (catalogue/help.ts), those meant for the caller's kind of account, found by words typed in any language.
 *
 * A search keeps the questions holding every word typed (split at spaces), in their title or in their answer's
 * text (its HTML tags left out), without regard to case: Chinese needs no word splitting, as a word is found
 * wherever its characters stand in a row (退款 in 如何退款). The help centre is a few hundred questions at most,
 * so the answers are searched as they are stored; the categories' counts answer the same search.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { FILTER_TEXT_MAX } from "../../../common/catalogue";
import { queryRows } from "../../db/client";
import { MAX_INT } from "../../protocol/validation";
import { ANY_SIGNED_IN, type OperationRegistry } from "../../protocol/registry";

/** the most questions one answer holds: the whole help centre of a platform, kept short */
export const HELP_PAGE_MAX = 200;
/** the most words of a search that count */
const SEARCH_WORDS_MAX = 8;

const helpCentrePayload = z.object({
  keyword: z.string().max(FILTER_TEXT_MAX).optional().nullable(),
  cate_id: z.coerce.number().int().positive().max(MAX_INT).optional().nullable(),
});

export interface HelpCategory {
  id: number;
  title: string;
  /** the questions of the category the search keeps */
  count: number;
}

export interface HelpQuestion {
  id: number;
  title: string;
  cate_id: number;
  /** HTML kept to the rich text's allow-list when it was saved */
  content: string;
}

function likeWords(keyword: string | null | undefined): string[] {
  const words = (keyword ?? "").trim().split(/\s+/).filter(Boolean).slice(0, SEARCH_WORDS_MAX);
  return words.map((word) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

export function registerHelpCentre(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "helpcenter",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "read",
    schema: helpCentrePayload,
    async handler(ctx, payload) {
      const audience = ctx.auth!.userType;
      const searched = likeWords(payload.keyword).map((pattern) => sql`(p.title ILIKE ${pattern} OR regexp_replace(p.content, '<[^>]*>', ' ', 'g') ILIKE ${pattern})`);
      const readable: SQL[] = [sql`p.status = '1'`, sql`c.status = '1'`, sql`(p.roles IS NULL OR cardinality(p.roles) = 0 OR ${audience}::varchar = ANY(p.roles))`, ...searched];
      const where = sql.join(readable, sql` AND `);
      const cates = await queryRows<{ id: number; title: string; count: number }>(
        ctx.db,
        sql`SELECT c.id, c.title, count(p.id)::int AS count
            FROM help_categories c JOIN help_problems p ON p.cate_id = c.id
            WHERE ${where}
            GROUP BY c.id, c.title, c.sort ORDER BY c.sort, c.id`,
      );
      const inCategory = payload.cate_id ? sql` AND p.cate_id = ${payload.cate_id}` : sql``;
      const questions = await queryRows<{ id: number; title: string; cate_id: number; content: string }>(
        ctx.db,
        sql`SELECT p.id, p.title, p.cate_id, p.content
            FROM help_problems p JOIN help_categories c ON c.id = p.cate_id
            WHERE ${where}${inCategory}
            ORDER BY c.sort, c.id, p.sort, p.id LIMIT ${HELP_PAGE_MAX}`,
      );
      const categories: HelpCategory[] = cates.map((c) => ({ id: Number(c.id), title: c.title, count: Number(c.count) }));
      const items: HelpQuestion[] = questions.map((q) => ({ id: Number(q.id), title: q.title, cate_id: Number(q.cate_id), content: q.content }));
      return { data: { items, cates: categories, total: items.length } };
    },
  });
}
