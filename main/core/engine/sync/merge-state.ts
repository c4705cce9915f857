/**
 * `<ID>/state.json` merged field by field (X-SYNC): counters add up what each machine added since
 * the common version (base + ours − base + theirs − base), times take the latest (`first_activity`
 * the earliest), the digest follows the latest sleep, and consent, changed on both sides to
 * different answers, takes the more careful one. Any other key changed on one side takes that
 * side; changed on both, ours. Unreadable JSON on one side: the other side wins whole.
 */
const COUNTERS = ['active_days', 'total_turns', 'positive_feedback'];
const LATEST = ['last_sleep', 'last_forget', 'last_activity'];
const EARLIEST = ['first_activity'];
const CONSENT_CARE = ['declined', 'unknown', 'accepted'];

type Obj = Record<string, unknown>;

function parse(text: string): Obj | undefined {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
  } catch {
    return undefined;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);
const ms = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? Date.parse(v) : undefined);

function pickTime(a: unknown, b: unknown, latest: boolean): unknown {
  const ta = ms(a);
  const tb = ms(b);
  if (ta === undefined) return tb === undefined ? (a ?? b) : b;
  if (tb === undefined) return a;
  return latest === ta >= tb ? a : b;
}

export function mergeStateJson(baseText: string, oursText: string, theirsText: string): string {
  const ours = parse(oursText);
  const theirs = parse(theirsText);
  if (!theirs) return oursText;
  if (!ours) return theirsText;
  const base = parse(baseText) ?? {};
  const out: Obj = {};
  const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])];
  for (const key of keys) {
    const [b, o, t] = [base[key], ours[key], theirs[key]];
    let value: unknown;
    if (key === 'last_sleep_digest')
      continue; // set below, from the side that slept last
    else if (same(o, t)) value = o;
    else if (COUNTERS.includes(key)) value = Math.max(0, num(o) + num(t) - num(b));
    else if (LATEST.includes(key)) value = pickTime(o, t, true);
    else if (EARLIEST.includes(key)) value = pickTime(o, t, false);
    else if (same(o, b))
      value = t; // only theirs changed it (or removed it)
    else if (same(t, b)) value = o;
    else if (key === 'personal_memory_consent') value = CONSENT_CARE.find((answer) => answer === o || answer === t) ?? o;
    else value = o === undefined ? t : o;
    if (value !== undefined) out[key] = value;
  }
  if ('last_sleep_digest' in ours || 'last_sleep_digest' in theirs) {
    const theirsSleptLater = (ms(theirs.last_sleep) ?? -Infinity) > (ms(ours.last_sleep) ?? -Infinity);
    out.last_sleep_digest = theirsSleptLater ? theirs.last_sleep_digest : (ours.last_sleep_digest ?? theirs.last_sleep_digest);
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}
