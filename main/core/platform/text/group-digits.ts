/**
 * A whole number with its thousands grouped by commas, as `toLocaleString('en-US')` writes it
 * (12,345). Written out because the first Intl number format of a process loads ICU's locale
 * data — 13–15 ms, half of `node -e 0` — and these counts are printed by hooks and commands
 * that start for one answer (X-PERF).
 */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
  return value < 0 ? `-${out}` : out;
}
