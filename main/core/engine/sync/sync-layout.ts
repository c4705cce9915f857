import path from 'node:path';
import type { KiokuPaths } from '../../platform/config/paths.js';

/**
 * Which folders become git working trees (X-SYNC) and what each must never carry. The memory home
 * and the role home are two trees on two branches of one remote repository (`memory`, `roles`);
 * a role home inside the memory home is simply part of the memory tree (one repository, one
 * branch). Machine-local things are ignored: the index, sockets, tokens, locks, the spool, logs,
 * snapshots, temp files, this machine's active role and session records.
 */
export type TreeName = 'memory' | 'roles';

export interface SyncTree {
  name: TreeName;
  dir: string;
  branch: string;
}

export function syncTrees(paths: Pick<KiokuPaths, 'memoryHome' | 'roleHome'>): SyncTree[] {
  const trees: SyncTree[] = [{ name: 'memory', dir: paths.memoryHome, branch: 'kioku-memory' }];
  const inside = path.relative(paths.memoryHome, paths.roleHome);
  const roleHomeInsideMemory = inside === '' || (!inside.startsWith('..') && !path.isAbsolute(inside));
  if (!roleHomeInsideMemory) trees.push({ name: 'roles', dir: paths.roleHome, branch: 'kioku-roles' });
  return trees;
}

export const MANAGED_BEGIN = '# >>> kioku sync (managed; edit outside this block)';
export const MANAGED_END = '# <<< kioku sync';

const COMMON_IGNORES = ['*.lock', '*.lock.*', '.*.tmp', '*.corrupt-*', '.DS_Store', 'Thumbs.db', 'desktop.ini'];

export const IGNORES: Record<TreeName, string[]> = {
  memory: ['/.kioku/', '*.sock', ...COMMON_IGNORES],
  roles: ['/.active', '/.sessions/', '/.locks/', '/.order', ...COMMON_IGNORES],
};

/** Later lines win in .gitattributes, so the general text rule comes first. */
export const ATTRIBUTES: Record<TreeName, string[]> = {
  memory: [
    '*.md merge=kioku-text',
    '*.gz binary',
    '/*/inbox/*.md merge=kioku-memory',
    '/*/important/*.md merge=kioku-memory',
    '/*/interest/*.md merge=kioku-memory',
    '/*/news/*.md merge=kioku-memory',
    '/*/skill/*.md merge=kioku-memory',
    '/*/daily/*.md merge=kioku-memory',
    '/*/other/*.md merge=kioku-memory',
    '/*/BONDS.md merge=kioku-bonds',
    '/*/DIGESTS.md merge=kioku-digests',
    '/*/state.json merge=kioku-state',
    '/*/.sleep/lease.json merge=kioku-lease',
    '/JOURNAL.jsonl merge=kioku-journal',
  ],
  roles: ['*.md merge=kioku-text', '*.png binary', '*.jpg binary', '*.webp binary'],
};

export const DRIVER_KINDS = ['memory', 'text', 'bonds', 'digests', 'journal', 'state', 'lease'] as const;
export type DriverKind = (typeof DRIVER_KINDS)[number];

/** A file's text with Kioku's block replaced (or appended), the user's own lines kept. */
export function withManagedBlock(existing: string, lines: readonly string[]): string {
  const block = [MANAGED_BEGIN, ...lines, MANAGED_END].join('\n');
  const start = existing.indexOf(MANAGED_BEGIN);
  const end = existing.indexOf(MANAGED_END);
  if (start !== -1 && end > start)
    return `${existing.slice(0, start)}${block}${existing.slice(end + MANAGED_END.length)}`.replace(/\n*$/, '\n');
  const before = existing.replace(/\n*$/, '');
  return `${before ? `${before}\n\n` : ''}${block}\n`;
}
