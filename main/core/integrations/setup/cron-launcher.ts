import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { installRootFrom } from './hook-client-path.js';
import { shellQuote } from './cron-entries.js';

/**
 * The fixed launcher the crontab points at (seed 000 §排程啟動器): `<state dir>/bin/kioku-launch`.
 * The crontab never names a versioned path: 寫死版本路徑的 crontab 條目就會指向不存在的檔案。cron
 * 不會回報這種失敗，排程只是靜默停擺 (this once left a schedule idle for a long time before anyone
 * noticed). The launcher resolves Kioku at each run:
 *
 *   1. the install recorded in `kioku-install.env` next to it (rewritten by every install-cron),
 *      while that file still exists;
 *   2. else `kioku` on PATH (the line's minimal PATH includes the folder it was found in);
 *   3. else it says so in `<state dir>/logs/cron.log` and exits 127 — `kioku status` reads that log.
 *
 * With `--cron` first (how the crontab calls it) stdout is dropped and stderr appended to
 * cron.log, so a failure is never just mailed into the void.
 */
export const LAUNCHER_NAME = 'kioku-launch';
export const INSTALL_RECORD_NAME = 'kioku-install.env';

export const launcherPath = (stateDir: string) => path.join(stateDir, 'bin', LAUNCHER_NAME);
export const installRecordPath = (stateDir: string) => path.join(stateDir, 'bin', INSTALL_RECORD_NAME);
export const cronLogPath = (stateDir: string) => path.join(stateDir, 'logs', 'cron.log');

export const LAUNCHER_SCRIPT = `#!/bin/sh
# Kioku's cron launcher (OPS-2), written by \`kioku install-cron\`; \`kioku remove-cron\` deletes it.
# The crontab points here, at a path without a version in it; this finds the current Kioku at
# each run, so an upgrade never leaves the schedule pointing at a folder that is gone.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
if [ "$1" = "--cron" ]; then
  shift
  mkdir -p "$here/../logs" 2>/dev/null
  exec >/dev/null 2>>"$here/../logs/cron.log"
fi
KIOKU_NODE=
KIOKU_ENTRY=
if [ -r "$here/${INSTALL_RECORD_NAME}" ]; then . "$here/${INSTALL_RECORD_NAME}"; fi
if [ -n "$KIOKU_ENTRY" ] && [ -f "$KIOKU_ENTRY" ]; then
  if [ -z "$KIOKU_NODE" ] || [ ! -x "$KIOKU_NODE" ]; then KIOKU_NODE=node; fi
  exec "$KIOKU_NODE" "$KIOKU_ENTRY" "$@"
fi
if command -v kioku >/dev/null 2>&1; then exec kioku "$@"; fi
echo "[$(date '+%Y/%m/%d %H:%M:%S')][cron][ERROR]: kioku-launch: cannot find Kioku: \${KIOKU_ENTRY:-no install recorded} is gone and kioku is not on PATH ($PATH); run \\\`kioku install-cron\\\` again from the current install" >&2
exit 127
`;

/** What the launcher should run: this install's `bin/kioku.js` under this Node. */
export interface KiokuInstall {
  node: string;
  entry: string;
  /** Electron's binary runs plain Node scripts only with ELECTRON_RUN_AS_NODE=1. */
  electronAsNode?: boolean;
}

export function currentKiokuInstall(moduleUrl: string = import.meta.url): KiokuInstall {
  const root = installRootFrom(fileURLToPath(moduleUrl));
  const install: KiokuInstall = { node: process.execPath, entry: path.join(root, 'bin', 'kioku.js') };
  if (process.versions.electron) install.electronAsNode = true;
  return install;
}

function recordText(install: KiokuInstall): string {
  const lines = [
    '# The Kioku install the cron launcher runs; rewritten by every `kioku install-cron`.',
    `KIOKU_NODE=${shellQuote(install.node)}`,
    `KIOKU_ENTRY=${shellQuote(install.entry)}`,
  ];
  if (install.electronAsNode) lines.push('ELECTRON_RUN_AS_NODE=1', 'export ELECTRON_RUN_AS_NODE');
  return `${lines.join('\n')}\n`;
}

/** Write the launcher (only when its text changed) and the install record; returns the launcher path. */
export function writeLauncher(stateDir: string, install: KiokuInstall): string {
  const launcher = launcherPath(stateDir);
  let current: string | undefined;
  try {
    current = fs.readFileSync(launcher, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== LAUNCHER_SCRIPT) writeFileAtomicSync(launcher, LAUNCHER_SCRIPT, { mode: 0o755 });
  else if ((fs.statSync(launcher).mode & 0o111) === 0) fs.chmodSync(launcher, 0o755);
  writeFileAtomicSync(installRecordPath(stateDir), recordText(install), { mode: 0o600 });
  return launcher;
}

/** remove-cron deletes the launcher and its record (--remove-cron 會一併刪除). */
export function removeLauncher(stateDir: string): boolean {
  let removed = false;
  for (const file of [launcherPath(stateDir), installRecordPath(stateDir)]) {
    try {
      fs.unlinkSync(file);
      removed = true;
    } catch {
      /* not there */
    }
  }
  return removed;
}
