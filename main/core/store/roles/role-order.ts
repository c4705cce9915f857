import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { explainInvalidRoleId, isValidRoleId } from '../../../../common/role-id.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/**
 * The order the user gave the role list in the app (drag or up/down): `<role home>/.order`, one
 * role ID a line. A dot file like `.active`, so seed 000's scripts, which list `*.md`, never see
 * it. Only a display preference: a missing, stale or hand-broken file never hides a role.
 */
export function roleOrderFile(roleHome: string): string {
  return path.join(roleHome, '.order');
}

/** The saved order; lines that are not role IDs (or repeat one) are skipped. */
export function readRoleOrder(roleHome: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(roleOrderFile(roleHome), 'utf8');
  } catch {
    return [];
  }
  const seen = new Set<string>();
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const id = line.trim();
    if (isValidRoleId(id)) seen.add(id);
  }
  return [...seen];
}

/** Save the order atomically. IDs are checked so the file never holds anything but IDs. */
export function writeRoleOrder(roleHome: string, order: readonly string[]): string[] {
  const unique = [...new Set(order)];
  for (const id of unique) {
    const problem = explainInvalidRoleId(id);
    if (problem) throw new KiokuError('INVALID_ID', `role order: ${problem}`, { hint: 'reload the role list and try again' });
  }
  fs.mkdirSync(roleHome, { recursive: true });
  writeFileAtomicSync(roleOrderFile(roleHome), unique.length ? `${unique.join('\n')}\n` : '');
  return unique;
}

/**
 * Items in the saved order; the ones the order does not name (new roles) follow in the order
 * they came, so a role created after the last drag shows up at the end, not nowhere.
 */
export function sortByRoleOrder<T extends { id: string }>(items: readonly T[], order: readonly string[]): T[] {
  const rank = new Map(order.map((id, index) => [id, index]));
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (rank.get(a.item.id) ?? order.length + a.index) - (rank.get(b.item.id) ?? order.length + b.index))
    .map(({ item }) => item);
}
