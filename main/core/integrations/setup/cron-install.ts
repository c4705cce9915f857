import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listCheckScripts, rolesWithChecks } from '../../engine/brief/check-scripts.js';
import { resolveUserTimeZone, systemTimeZone } from '../../platform/config/time-zone.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import {
  cronEnvironment,
  formatCronLine,
  isLegacyCronLine,
  parseKiokuCronEntries,
  planCronEntries,
  replaceKiokuLines,
  type KiokuCronEntry,
} from './cron-entries.js';
import { currentKiokuInstall, launcherPath, removeLauncher, writeLauncher, type KiokuInstall } from './cron-launcher.js';

/**
 * `kioku install-cron` / `kioku remove-cron` (OPS-2): headless scheduling without the tray app.
 * The crontab is read with `crontab -l` and written with `crontab -` through a runner, so tests
 * use a fake and never touch the machine's crontab.
 */
export interface CrontabRunner {
  /** The current crontab; '' when the user has none. */
  read(): string;
  write(text: string): void;
}

const CRON_MISSING_HINT =
  'install cron (Debian/Ubuntu: sudo apt-get install cron; Fedora/RHEL: sudo dnf install cronie; Arch: sudo pacman -S cronie), or run the tray app or `kioku daemon`, which schedule without cron';

function crontabMissing(): KiokuError {
  return new KiokuError('NOT_FOUND', 'the crontab command was not found, so Kioku cannot read or write the schedule', {
    hint: CRON_MISSING_HINT,
  });
}

/** The machine's crontab through the `crontab` command. */
export function systemCrontab(env: NodeJS.ProcessEnv = process.env): CrontabRunner {
  const run = (args: string[], input?: string) => {
    const result = spawnSync('crontab', args, { env, input: input ?? '', encoding: 'utf8', timeout: 30_000 });
    if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw crontabMissing();
    if (result.error)
      throw new KiokuError('IO', `crontab ${args.join(' ')} failed: ${result.error.message}`, {
        hint: 'check that cron is installed and usable by this user',
      });
    return result;
  };
  return {
    read() {
      const result = run(['-l']);
      if (result.status === 0) return result.stdout;
      // "no crontab for <user>" is an empty crontab, not an error.
      if (/no crontab/i.test(result.stderr)) return '';
      throw new KiokuError('IO', `crontab -l exited ${result.status}: ${result.stderr.trim()}`, {
        hint: 'check that this user may use cron (/etc/cron.allow, /etc/cron.deny)',
      });
    },
    write(text) {
      const result = run(['-'], text);
      if (result.status !== 0) {
        throw new KiokuError('IO', `crontab - refused the new schedule (exit ${result.status}): ${result.stderr.trim()}`, {
          hint: 'nothing was changed; check the lines printed by `kioku install-cron --dry-run`',
        });
      }
    },
  };
}

/** Kioku's tagged entries in the crontab (for `kioku status`); throws a KiokuError when cron is missing. */
export function readKiokuCronEntries(runner: CrontabRunner = systemCrontab()): KiokuCronEntry[] {
  return parseKiokuCronEntries(runner.read());
}

/**
 * Whether a cron daemon runs (OPS-1: warn when the cron service is not running — WSL often has none started).
 * Linux only (reads /proc); undefined where it cannot tell.
 */
export function cronServiceRunning(procDir = '/proc'): boolean | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync(procDir).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    try {
      const comm = fs.readFileSync(path.join(procDir, pid, 'comm'), 'utf8').trim();
      if (/^(cron|crond|cronie|fcron|dcron|busybox-crond)$/.test(comm)) return true;
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return false;
}

const CLI_NAMES = ['claude', 'codex', 'gemini', 'agy', 'opencode', 'copilot'];

function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * The line's PATH: the system's basic folders, Node's, the summary CLIs' (ROLE_CLI, or every
 * known one for `auto`) and kioku's own when it is on PATH — and nothing else from the shell.
 */
export function minimalPathDirs(config: KiokuConfig, install: KiokuInstall): string[] {
  const dirs = ['/usr/local/bin', '/usr/bin', '/bin', path.dirname(install.node)];
  const cli = config.settings.ROLE_CLI;
  const wanted = cli === 'auto' ? CLI_NAMES : cli === 'local' ? [] : [cli];
  for (const name of [...wanted, 'kioku']) {
    const found = findOnPath(name, config.env.PATH);
    if (found) dirs.push(path.dirname(found));
  }
  return [...new Set(dirs)];
}

export interface CronDeps {
  runner?: CrontabRunner;
  install?: KiokuInstall;
  /** Default: cronServiceRunning(). */
  serviceRunning?: () => boolean | undefined;
  /** The zone cron reads its fields in; default: the machine's (systemTimeZone()). */
  cronZone?: string;
}

export interface CronInstallResult {
  entries: KiokuCronEntry[];
  /** False when the crontab already held exactly these lines (nothing was written). */
  changed: boolean;
  launcher: string;
  /** Roles with a checks folder (the brief entry is there only when some role has one). */
  briefRoles: string[];
  /** the role skill's own `# jsc-role-sleep` lines still in the crontab (left alone). */
  legacyLines: string[];
  warnings: string[];
  dryRun: boolean;
  /** The user's zone the lines' commands run in, and the zone cron reads the fields in. */
  zones: { user: string; cron: string };
}

/**
 * Write Kioku's entries: replaces only its tagged lines, keeps every other line byte for byte,
 * writes nothing when the crontab already says the same (idempotent). The launcher and its
 * install record are written first, so the crontab never points at a file that is not there.
 */
export function installCron(config: KiokuConfig, deps: CronDeps = {}, options: { dryRun?: boolean } = {}): CronInstallResult {
  const runner = deps.runner ?? systemCrontab(config.env);
  const install = deps.install ?? currentKiokuInstall();
  const warnings: string[] = [];
  const allRoles = config.settings.ROLE_SLEEP_ALL_ROLES;
  const single = allRoles ? undefined : resolveCurrentRole(config)?.id;
  if (!allRoles && !single) {
    throw new KiokuError('BAD_USAGE', 'ROLE_SLEEP_ALL_ROLES=0 schedules one role, but ROLE_NAME is not set and there is no active role', {
      hint: 'set ROLE_NAME, choose a role with `kioku role use ID`, or leave ROLE_SLEEP_ALL_ROLES at 1 to serve every role',
    });
  }
  const briefRoles = single
    ? listCheckScripts(config.paths.roleHome, single).exists
      ? [single]
      : []
    : rolesWithChecks(config.paths.roleHome);

  const current = runner.read();
  const launcher = launcherPath(config.paths.stateDir);
  const zones = {
    user: resolveUserTimeZone(config.settings.ROLE_TIMEZONE, config.env).zone,
    cron: deps.cronZone ?? systemTimeZone(),
    at: config.clock.now(),
  };
  const env = cronEnvironment(config, minimalPathDirs(config, install), single, zones.user);
  const planned = planCronEntries(config, { hasChecks: briefRoles.length > 0, zones });
  const lines = planned.map((entry) => formatCronLine(entry, env, launcher));
  const next = replaceKiokuLines(current, lines);
  const changed = next !== current;

  if (!options.dryRun) {
    writeLauncher(config.paths.stateDir, install);
    if (changed) runner.write(next);
  }

  if (!planned.some((entry) => entry.kind === 'sleep'))
    warnings.push(
      `ROLE_SLEEP_START equals ROLE_SLEEP_END (${config.settings.ROLE_SLEEP_START}): no sleep window, so no hourly sleep check was scheduled`,
    );
  if (config.settings.ROLE_BRIEF_ENABLED && briefRoles.length === 0) {
    warnings.push(
      `no role has a ${path.join(config.paths.roleHome, '<ID>.checks')}/ folder, so no morning brief was scheduled; run install-cron again after creating one`,
    );
  }
  const legacyLines = current.split('\n').filter(isLegacyCronLine);
  if (legacyLines.length) {
    warnings.push(
      `${legacyLines.length} line(s) from the original role scripts (# jsc-role-sleep) are still in the crontab and would consolidate a second time; remove them with \`kioku remove-cron --legacy\` and run install-cron again`,
    );
  }
  const service = (deps.serviceRunning ?? (() => cronServiceRunning()))();
  if (service === false)
    warnings.push(
      'no cron service is running, so these entries will not run until it is started (e.g. sudo service cron start; WSL does not start it by itself)',
    );
  return {
    entries: parseKiokuCronEntries(lines.join('\n')),
    changed,
    launcher,
    briefRoles,
    legacyLines,
    warnings,
    dryRun: Boolean(options.dryRun),
    zones: { user: zones.user, cron: zones.cron },
  };
}

export interface CronRemoveResult {
  removed: number;
  legacyRemoved: number;
  launcherRemoved: boolean;
}

/** Delete only Kioku's tagged lines (and, with `legacy`, the role skill's), then the launcher. */
export function removeCron(config: KiokuConfig, deps: CronDeps = {}, options: { legacy?: boolean } = {}): CronRemoveResult {
  const runner = deps.runner ?? systemCrontab(config.env);
  const current = runner.read();
  const lines = current.split('\n');
  const removed = parseKiokuCronEntries(current).length;
  const legacyRemoved = options.legacy ? lines.filter(isLegacyCronLine).length : 0;
  const next = replaceKiokuLines(current, [], { dropLegacy: Boolean(options.legacy) });
  if (next !== current) runner.write(next);
  return { removed, legacyRemoved, launcherRemoved: removeLauncher(config.paths.stateDir) };
}
