import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import type { SleepPlan } from './sleep-plan.js';

/**
 * Every text a plan will write — summaries, bodies, tags, cues, expires, discard reasons, the
 * digest — through the storage gate (PRIV-1 redaction, PRIV-2 script guard) before the plan is
 * recorded as pending, so a replay writes exactly the cleaned text again. Bonds are cleaned by
 * appendBond itself. Ids, keys and sources are left alone: they must match files exactly.
 *
 * One gate call per plan, not per field: the gate costs about a millisecond a call (secretlint's
 * setup) whatever the length, and a plan of a large batch has thousands of fields. The texts are
 * joined with a line holding only U+241E (SYMBOL FOR RECORD SEPARATOR); no secret pattern spans
 * a line break, and the script guard maps character by character, so the cleaned text splits
 * back into the same fields. Should the count ever differ (a text containing U+241E itself), each
 * field is cleaned on its own instead.
 */
const SEPARATOR = '\n\u241E\n';

interface Slot {
  get(): string;
  set(value: string): void;
}

function slotsOf(plan: SleepPlan): Slot[] {
  const slots: Slot[] = [];
  const field = <T extends object, K extends keyof T>(owner: T, key: K) => {
    slots.push({ get: () => String(owner[key]), set: (value) => void (owner[key] = value as T[K]) });
  };
  const list = (items: string[]) => items.forEach((_, i) => slots.push({ get: () => items[i]!, set: (value) => void (items[i] = value) }));
  for (const c of plan.create) {
    field(c, 'summary');
    field(c, 'body');
    if (c.expires) field(c, 'expires');
    list(c.tags);
    list(c.cues);
  }
  for (const m of plan.merge) {
    field(m, 'summary');
    field(m, 'body');
    list(m.tags);
    list(m.cues);
  }
  for (const c of plan.corrections) {
    field(c, 'summary');
    field(c, 'body');
  }
  for (const d of plan.discard) field(d, 'reason');
  field(plan, 'digest');
  return slots;
}

export async function cleanPlanForStorage(input: SleepPlan): Promise<{ plan: SleepPlan; warnings: string[] }> {
  const plan = structuredClone(input);
  const slots = slotsOf(plan);
  const texts = slots.map((slot) => slot.get());
  const warnings = new Set<string>();
  const joined = await cleanForStorage(texts.join(SEPARATOR));
  joined.warnings.forEach((warning) => warnings.add(warning));
  let cleaned = joined.text.split(SEPARATOR);
  if (cleaned.length !== texts.length) {
    cleaned = [];
    for (const text of texts) {
      const one = await cleanForStorage(text);
      one.warnings.forEach((warning) => warnings.add(warning));
      cleaned.push(one.text);
    }
  }
  // Redaction never empties a text; keep the original should a cleaned one be blank, so a
  // schema-valid plan stays schema-valid.
  slots.forEach((slot, i) => slot.set(cleaned[i]!.trim() ? cleaned[i]! : texts[i]!));
  for (const c of plan.create) {
    c.tags = [...new Set(c.tags.map((tag) => tag.trim()).filter(Boolean))];
    c.cues = [...new Set(c.cues.map((cue) => cue.trim()).filter(Boolean))];
  }
  for (const m of plan.merge) {
    m.tags = [...new Set(m.tags.map((tag) => tag.trim()).filter(Boolean))];
    m.cues = [...new Set(m.cues.map((cue) => cue.trim()).filter(Boolean))];
  }
  return { plan, warnings: [...warnings] };
}
