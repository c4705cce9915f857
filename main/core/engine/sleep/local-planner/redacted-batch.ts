import { redact } from '../../../platform/privacy/redact.js';
import type { CollectedBatch, InboxItem } from '../sleep-plan.js';

/**
 * The local planner derives words from its items — tags, and cues clipped to 16 characters from
 * the user's words (memory-text.ts cuesOf) — and a piece cut out of a token is no longer a secret
 * to any pattern, so cleaning the plan afterwards (plan-text-cleaner.ts) cannot catch it (issue
 * 14: "sleep even cuts the JWT into tags and cues"). Items written by Kioku are redacted already;
 * an inbox file edited by hand, synced from elsewhere or written by an older version may not be.
 * So the planner works on the items as they would have been stored: every text redacted first.
 *
 * One redact call for the whole batch (secretlint costs about a millisecond a call whatever the
 * length): the texts joined by a line holding only U+241E, which no pattern spans; should the
 * count differ after redaction (a text holding U+241E itself), each text is redacted on its own.
 * The existing memories the planner may merge into are left as they are on disk.
 */
const SEPARATOR = '\n\u241E\n';

export async function redactedBatch(batch: CollectedBatch): Promise<CollectedBatch> {
  const texts: string[] = [];
  const layout = batch.items.map((item) => {
    const start = texts.length;
    texts.push(item.summary, item.body, ...(item.expires === undefined ? [] : [item.expires]), ...item.tags, ...item.cues);
    return start;
  });
  if (texts.length === 0) return batch;
  let cleaned = (await redact(texts.join(SEPARATOR))).split(SEPARATOR);
  if (cleaned.length !== texts.length) cleaned = await Promise.all(texts.map((text) => redact(text)));
  const items = batch.items.map((item, i): InboxItem => {
    let at = layout[i]!;
    const summary = cleaned[at++]!;
    const body = cleaned[at++]!;
    const expires = item.expires === undefined ? {} : { expires: cleaned[at++]! };
    const tags = item.tags.map(() => cleaned[at++]!);
    const cues = item.cues.map(() => cleaned[at++]!);
    return { ...item, summary, body, ...expires, tags, cues };
  });
  return { ...batch, items };
}
