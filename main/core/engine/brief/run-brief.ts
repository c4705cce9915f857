import { formatLocalDateTime } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { writeMemory } from '../../store/memory/memory-writer.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import { composeBrief, cutAtLineEnd, normalizeOutput, type BriefSection } from './brief-text.js';
import { chmodHint, listCheckScripts } from './check-scripts.js';
import { runCheckScript } from './run-check-script.js';

/**
 * BRIEF-1, the morning brief: at the end of the sleep window run the user's check scripts and keep
 * what they said as one memory for the day's first conversation.
 * Design notes: docs/design-notes.md, "main/core/engine/brief/run-brief.ts".
 */
export type BriefScriptStatus = 'reported' | 'silent' | 'timed-out' | 'not-started' | 'skipped';

export interface BriefScriptReport {
  name: string;
  path: string;
  status: BriefScriptStatus;
  exitCode: number | null;
  /** The redacted, capped output that went into the memory ('' when silent or skipped). */
  output: string;
  /** Characters cut by ROLE_BRIEF_EACH_LIMIT. */
  cut: number;
  /** Why it was skipped or did not finish, and what to do. */
  note?: string;
}

export interface BriefResult {
  role: string;
  checksDir: string;
  /** ROLE_BRIEF_ENABLED. */
  enabled: boolean;
  /** False when `<ID>.checks/` does not exist: nothing was done. */
  hasChecks: boolean;
  ran: string[];
  skipped: string[];
  timedOut: string[];
  scripts: BriefScriptReport[];
  /** The memory written, or null when every script was silent (or none ran). */
  memory: { id: string; path: string; summary: string } | null;
  /** Characters cut by ROLE_BRIEF_LIMIT. */
  totalCut: number;
  /** For the user: skipped scripts with their chmod, scripts that failed, script-guard notes. */
  warnings: string[];
}

export interface BriefOptions {
  logger?: Logger;
}

/** Read and dropped beyond this; far above any sensible limit, it only guards the process. */
const CAPTURE_CAP_CHARS = 1_000_000;

function firstLineOf(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim())
      ?.trim() ?? ''
  );
}

export async function runBrief(config: KiokuConfig, role: string, options: BriefOptions = {}): Promise<BriefResult> {
  const { settings, paths } = config;
  const listing = listCheckScripts(paths.roleHome, role);
  const result: BriefResult = {
    role,
    checksDir: listing.dir,
    enabled: settings.ROLE_BRIEF_ENABLED,
    hasChecks: listing.exists,
    ran: [],
    skipped: [],
    timedOut: [],
    scripts: [],
    memory: null,
    totalCut: 0,
    warnings: [],
  };
  if (!settings.ROLE_BRIEF_ENABLED || !listing.exists) return result;

  const log = (level: 'info' | 'warn', message: string) => options.logger?.[level]('brief', `${role}: ${message}`);
  const env: NodeJS.ProcessEnv = { ...config.env, ROLE_NAME: role, ROLE_HOME: paths.roleHome, ROLE_MEMORY_HOME: paths.memoryHome };
  const timeoutSeconds = settings.ROLE_BRIEF_TIMEOUT;
  const sections: BriefSection[] = [];

  for (const script of listing.scripts) {
    if (!script.executable) {
      const note = `${script.path} is not executable; skipped it. Read it, then run: ${chmodHint(script)}`;
      result.skipped.push(script.name);
      result.scripts.push({ name: script.name, path: script.path, status: 'skipped', exitCode: null, output: '', cut: 0, note });
      result.warnings.push(note);
      log('warn', note);
      continue;
    }
    result.ran.push(script.name);
    const run = await runCheckScript(script.path, {
      timeoutMs: timeoutSeconds * 1000,
      env,
      cwd: listing.dir,
      keepChars: CAPTURE_CAP_CHARS,
    });
    // Redact before cutting: a cut through the middle of a token would hide it from the patterns.
    const cleaned = await cleanForStorage(normalizeOutput(run.stdout));
    for (const warning of cleaned.warnings) result.warnings.push(`${script.name}: ${warning}`);
    const capped = cutAtLineEnd(cleaned.text, settings.ROLE_BRIEF_EACH_LIMIT);
    const report: BriefScriptReport = {
      name: script.name,
      path: script.path,
      status: 'silent',
      exitCode: run.exitCode,
      output: capped.text,
      cut: capped.cut,
    };
    let trouble: string | undefined;
    if (run.startError) {
      report.status = 'not-started';
      report.note = `${script.path} could not be started (${run.startError}); check that its first line is a #! line such as #!/bin/sh`;
      trouble = `無法執行：${run.startError}`;
    } else if (run.timedOut) {
      report.status = 'timed-out';
      report.note = `${script.path} ran longer than ROLE_BRIEF_TIMEOUT (${timeoutSeconds} s) and was stopped`;
      trouble = `逾時 ${timeoutSeconds} 秒，已中止`;
      result.timedOut.push(script.name);
    } else if (capped.text || capped.cut > 0) {
      report.status = 'reported';
    }
    if (report.note) {
      result.warnings.push(report.note);
      log('warn', report.note);
    }
    // A non-zero exit with nothing on stdout is still "nothing to report" (stdout is the report),
    // but the user should be able to find out why their check is failing.
    if (!run.startError && !run.timedOut && run.exitCode !== 0) {
      const why = firstLineOf((await cleanForStorage(normalizeOutput(run.stderr))).text);
      log('warn', `${script.path} exited with ${run.exitCode}${why ? `: ${why}` : ''}`);
    }
    result.scripts.push(report);
    if (report.status !== 'silent')
      sections.push({ name: script.name, text: capped.text, cut: capped.cut, ...(trouble ? { trouble } : {}) });
  }

  if (sections.length === 0) {
    log('info', `${result.ran.length} check script(s) ran, all silent: nothing to report`);
    return result;
  }
  const composed = composeBrief(sections, settings.ROLE_BRIEF_LIMIT, formatLocalDateTime(config.clock.now()).slice(0, 16));
  result.totalCut = composed.totalCut;
  const written = await writeMemory(config, role, {
    category: 'daily',
    summary: composed.summary,
    body: composed.body,
    tags: ['brief', '晨報'],
    priority: 2,
    memory_type: 'episodic',
    relevance: ['temporary'],
    retention_stage: 'long_term',
    sleep_stage: 'seed',
    extra: { source: 'brief' },
  });
  result.memory = { id: written.memory.id, path: written.memory.path, summary: written.memory.summary };
  // written.warnings repeat the script-guard notes already collected per script above.
  log('info', `${sections.length} check script(s) reported; wrote ${written.memory.path}`);
  return result;
}
