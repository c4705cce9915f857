import { KiokuError } from '../../../common/errors.js';
import { DEFAULT_RECALL_LIMIT } from '../../core/store/index/recall-limits.js';

/** `memory recall --limit` (CLI.md): shared by the command and its fast path (recall-fast.ts). */
export const MAX_LIMIT = 100;

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_RECALL_LIMIT;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw new KiokuError('BAD_USAGE', `--limit "${value}" is not a whole number from 1 to ${MAX_LIMIT}`, { hint: 'e.g. --limit 5' });
  }
  return n;
}
