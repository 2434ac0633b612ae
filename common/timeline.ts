/** An event of a record's timeline as `{entity}info` answers it (server/engine/timeline.ts, src/engine/Timeline.tsx). */
export interface TimelineEntry {
  at: string;
  who: string;
  event: string;
  from: string | null;
  to: string | null;
  /** the entry's other details that are a text or a number (a reason, a refund number), money in yuan */
  params: Record<string, string | number>;
}
