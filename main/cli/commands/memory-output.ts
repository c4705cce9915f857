import path from 'node:path';
import { ALL_CATEGORIES, CATEGORY_LABELS, MEMORY_TYPES, MEMORY_TYPE_LABELS } from '../../../common/memory.js';
import { BOND_DIRECTION_LABELS, type Bond } from '../../core/store/memory/bonds.js';
import type { ForgetResult } from '../../core/store/memory/forget.js';
import type { MemoryStats } from '../../core/store/memory/memory-stats.js';
import type { MigrateResult } from '../../core/store/memory/migrate-memories.js';
import type { ProbeAudit } from '../../core/store/memory/probes.js';

/** Human output of `kioku memory …` (zh-TW labels first, as the users read them). */

const memories = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;

/** Pad to a terminal width where CJK characters take two columns. */
function padColumns(text: string, width: number): string {
  const columns = [...text].reduce((sum, char) => sum + (/[\u1100-\uffdc]/.test(char) ? 2 : 1), 0);
  return text + ' '.repeat(Math.max(0, width - columns));
}

export function statsText(stats: MemoryStats): string {
  const lines = [`${stats.role}: ${memories(stats.total)}`];
  for (const category of ALL_CATEGORIES) {
    lines.push(`  ${padColumns(category, 10)} ${padColumns(CATEGORY_LABELS[category].zh, 7)} ${stats.categories[category]}`);
  }
  const types = MEMORY_TYPES.map((type) => `${MEMORY_TYPE_LABELS[type].zh} ${type} ${stats.types[type]}`);
  lines.push(`  types: ${types.join(', ')}`);
  // PM-2: consolidated memories only (the inbox is working memory).
  const { clear, faded, fuzzy } = stats.clarity;
  lines.push(`  clarity: 清晰 clear ${clear}, 淡去 faded ${faded}, 模糊 fuzzy ${fuzzy}`);
  if (stats.problems.length) lines.push(`  unreadable files: ${stats.problems.length} (listed on stderr)`);
  return lines.join('\n');
}

export function forgetText(result: ForgetResult, memoryHome: string): string {
  if (result.forgotten.length === 0) return `${result.role}: nothing to forget.`;
  const verb = result.dryRun ? 'would forget' : 'forgot';
  const lines = result.forgotten.map((entry) => {
    const archived = entry.archive ? ` → ${path.relative(memoryHome, entry.archive)}` : '';
    return `  ${verb} ${entry.category}/${entry.id}: ${entry.reason}${archived}`;
  });
  const tail = result.dryRun ? 'dry run: nothing was changed.' : 'archived in archive/forgotten/ (gunzip to read them).';
  return [`${result.role}: ${memories(result.forgotten.length)} ${result.dryRun ? 'to forget' : 'forgotten'}`, ...lines, tail].join('\n');
}

export function bondsText(role: string, bonds: readonly Bond[]): string {
  if (bonds.length === 0) return `${role}: no bonds recorded yet.`;
  return bonds
    .map((bond) => {
      const direction = bond.direction ? BOND_DIRECTION_LABELS[bond.direction] : '—';
      return `${bond.time || '—'}  ${direction}  ${bond.text}`;
    })
    .join('\n');
}

export function probeAuditText(audit: ProbeAudit): string {
  const { pending, confirmed, denied } = audit.counts;
  const lines = [`${audit.role}: probes pending ${pending}, confirmed ${confirmed}, denied ${denied}`];
  if (audit.needsCorrection.length) {
    lines.push(`  to correct at the next consolidation (「原本以為…後來發現…」): ${audit.needsCorrection.map((m) => m.id).join(', ')}`);
  }
  return lines.join('\n');
}

/** With --all only counts are shown (PM-6: report counts only, never print a word of any memory's content). */
export function migrateText(result: MigrateResult, listFiles: boolean): string {
  const verb = result.dryRun ? 'would migrate' : 'migrated';
  const lines: string[] = [];
  for (const role of result.roles) {
    lines.push(`${role.role}: ${verb} ${role.changed} of ${role.files} files`);
    if (listFiles) for (const file of role.paths) lines.push(`  ${file}`);
  }
  if (lines.length === 0) lines.push('No memory folders found.');
  if (result.dryRun) lines.push('dry run: nothing was changed.');
  return lines.join('\n');
}
