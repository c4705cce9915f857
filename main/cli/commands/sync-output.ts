import type { OutgoingTree } from '../../core/engine/sync/sync-init.js';
import type { SyncLogEntry } from '../../core/engine/sync/sync-log.js';
import type { SyncRun } from '../../core/engine/sync/sync-now.js';
import type { SyncStatus } from '../../core/engine/sync/sync-status.js';

/** Human output of `kioku sync …`, zh-TW first with English, like the rest of the CLI. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

export function outgoingText(outgoing: OutgoingTree[], remote: string): string {
  const lines = [
    `以下檔案會送到 ${remote}（Kioku 無法判斷這個遠端是否私人）`,
    `These files will be sent to ${remote} (Kioku cannot tell whether this remote is private):`,
  ];
  for (const tree of outgoing) {
    const files = tree.groups.reduce((n, g) => n + g.files, 0);
    const bytes = tree.groups.reduce((n, g) => n + g.bytes, 0);
    lines.push(`  ${tree.dir} → branch ${tree.branch}: ${files} file(s), ${size(bytes)}`);
    for (const group of tree.groups) lines.push(`    ${group.name}: ${group.files} file(s), ${size(group.bytes)}`);
  }
  lines.push(
    '不會送出 never sent: the index, sockets, tokens, locks, spool, logs, snapshots, settings (.kioku/), the active role, session records.',
  );
  return lines.join('\n');
}

export function runText(run: SyncRun): string {
  const head = run.outcome === 'ok' ? '同步完成 synced' : run.outcome === 'offline' ? '離線 offline' : '失敗 failed';
  const lines = [`${head} (${run.seconds.toFixed(1)} s)${run.message ? `: ${run.message}` : ''}`];
  for (const tree of run.trees) {
    const did =
      [tree.committed ? 'committed' : '', tree.merged ? 'merged' : '', tree.pushed ? 'pushed' : ''].filter(Boolean).join(', ') ||
      'nothing to do';
    lines.push(`  ${tree.tree}: ${did}; ${tree.changed} file(s) changed`);
    for (const copy of tree.conflicts) lines.push(`  衝突 conflict: both machines changed it; the other version is kept as ${copy}`);
  }
  return lines.join('\n');
}

export function syncStatusLines(status: SyncStatus): string[] {
  if (!status.configured) return ['同步 sync: not set up (`kioku sync init --remote <git URL>`)'];
  const last = status.last;
  const lines = [
    `同步 sync: ${status.machine} ↔ ${status.remote ?? '(no remote)'}${status.approved ? '' : ' — waiting for your agreement to the first push'}`,
    `  上次 last: ${last ? `${last.at} ${last.outcome}${last.message ? ` — ${last.message}` : ''}` : 'never'}${last?.lastOkAt && last.outcome !== 'ok' ? `; last success ${last.lastOkAt}` : ''}`,
  ];
  for (const tree of status.trees) {
    lines.push(
      `  ${tree.tree} (${tree.branch}): ${tree.repo ? `${tree.uncommitted} uncommitted, ${tree.ahead} to send, ${tree.behind} to merge` : 'not a git repository'}`,
    );
  }
  for (const lease of status.leases.filter((l) => l.active))
    lines.push(`  睡眠 sleep lease: ${lease.role} on ${lease.mine ? 'this machine' : lease.holder} until ${lease.expires}`);
  if (status.conflicts.length) {
    lines.push(
      `  衝突 conflicts: ${status.conflicts.length} file(s) hold the other machine's version; compare, keep what you want, delete the copy:`,
    );
    for (const file of status.conflicts.slice(0, 10)) lines.push(`    ${file}`);
  }
  return lines;
}

export function logText(entries: SyncLogEntry[]): string {
  if (!entries.length) return '(no commits yet)';
  return entries.map((e) => `${e.at}  ${e.tree.padEnd(6)} ${e.commit}  ${e.author}  ${e.subject}`).join('\n');
}
