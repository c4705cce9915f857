import type { BondList, UiParsedRequest } from '../../../../common/ui-contract.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
// The reader only: bonds.ts would load the write path's redaction and script guard for nothing.
import { readBonds } from '../../store/memory/bonds-reader.js';

/** A bond's time as written (`2026-11-30 21:15`) → ISO with the local offset, when it can be read. */
function atOf(time: string): string | null {
  const date = parseLooseDate(time);
  return date ? formatLocalIso(date) : null;
}

/**
 * The bonds view (MEM-7, seed 000 §關係史): BONDS.md's lines, newest first, as they were written.
 * Only the lines — no totals, no per-direction counts, nothing that reads as measuring affection
 * ("bonds are never used to demand attention or count affection").
 */
export function listBonds(config: KiokuConfig, request: UiParsedRequest<'bonds.list'>): BondList {
  const bonds = readBonds(config.paths.memoryHome, request.role, request.count).map((bond) => ({
    time: bond.time,
    at: atOf(bond.time),
    direction: bond.direction,
    text: bond.text,
  }));
  return { role: request.role, bonds };
}
