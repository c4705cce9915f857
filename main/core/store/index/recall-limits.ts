/** How many memories a recall returns unless asked otherwise (apart from recall.ts, so the CLI can say it without loading SQLite). */
export const DEFAULT_RECALL_LIMIT = 5;
