import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import {
  BONDS_HEADER,
  BONDS_KEPT,
  bondsFile,
  formatBondLine,
  parseBondLine,
  readBondLines,
  type Bond,
  type BondDirection,
} from './bonds-reader.js';

export {
  BOND_DIRECTION_LABELS,
  BONDS_KEPT,
  bondsFile,
  formatBondLine,
  parseBondLine,
  readBonds,
  type Bond,
  type BondDirection,
} from './bonds-reader.js';

const sameWords = (text: string) => text.replace(/\s+/g, ' ').trim();

export interface AppendBondResult {
  added: boolean;
  /** The bond as stored (cleaned), also when it was already there. */
  bond: Bond;
  warnings: string[];
}

/** `yyyy-MM-dd HH:mm`, local time: precise enough for people, short enough for one line. */
function bondTime(date: Date): string {
  return formatLocalIso(date).slice(0, 16).replace('T', ' ');
}

/**
 * Add one bond (redacted and script-guarded like every memory). The same words already in the
 * file, in any direction, are not added again. Beyond BONDS_KEPT the oldest bond lines go; the
 * header and any prose a person added stay.
 */
export async function appendBond(
  config: KiokuConfig,
  role: string,
  input: { text: string; direction: BondDirection },
): Promise<AppendBondResult> {
  const cleaned = await cleanForStorage(input.text);
  const bond: Bond = { time: bondTime(config.clock.now()), direction: input.direction, text: sameWords(cleaned.text) };
  if (!bond.text) return { added: false, bond, warnings: cleaned.warnings };
  const file = bondsFile(config.paths.memoryHome, role);
  return withLock(`${file}.lock`, { purpose: 'append a bond', waitMs: 5_000, staleMs: 60_000 }, () => {
    const existing = readBondLines(file);
    if (existing.some((line) => sameWords(parseBondLine(line)?.text ?? '') === bond.text)) {
      return { added: false, bond, warnings: cleaned.warnings };
    }
    const lines = [...existing];
    while (lines.length && lines[lines.length - 1] === '') lines.pop();
    if (!lines.length) lines.push(...BONDS_HEADER.split('\n'));
    lines.push(formatBondLine(bond));
    let toDrop = lines.filter((line) => parseBondLine(line)).length - BONDS_KEPT;
    const kept = lines.filter((line) => {
      if (toDrop <= 0 || !parseBondLine(line)) return true;
      toDrop--;
      return false;
    });
    writeFileAtomicSync(file, `${kept.join('\n')}\n`);
    return { added: true, bond, warnings: cleaned.warnings };
  });
}
