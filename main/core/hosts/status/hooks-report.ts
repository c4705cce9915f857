import path from 'node:path';
import { ASSISTANTS } from '../../../../common/hook-events.js';
import { claudePluginHooks, type ClaudePluginHooks } from '../../integrations/setup/claude-plugins.js';
import { codexHookTrust, type CodexTrustState } from '../../integrations/setup/codex-hook-trust.js';
import { findKiokuHooks } from '../../integrations/setup/hooks-edit.js';
import { hooksStatus, settingsPathFor } from '../../integrations/setup/hooks-install.js';
import { readSettingsFile } from '../../integrations/setup/settings-file.js';

/**
 * The hooks part of `kioku status` / `diagnose` (OPS-1): per assistant, what its settings file
 * holds — and, since issue 13, whether Codex will run those hooks (trusted in `/hooks`) and
 * which Claude Code plugins bring Kioku's hooks instead of settings.json.
 */
export interface CodexTrustStatus {
  /** `$CODEX_HOME/config.toml`, where Codex records which hooks the user trusted. */
  configFile: string;
  trusted: number;
  /** Events whose Kioku hook was never trusted / changed since it was / is turned off in `/hooks`. */
  untrusted: string[];
  modified: string[];
  disabled: string[];
  problem?: string;
}

export interface HookReport {
  assistant: string;
  installed: boolean;
  complete: boolean;
  missingEvents: string[];
  settingsFile: string;
  problem?: string;
  /** Codex only, when its hooks.json has Kioku's entries. */
  trust?: CodexTrustStatus;
  /** Claude Code only: plugins whose hooks run Kioku. */
  plugins?: ClaudePluginHooks[];
  /** Claude Code only: files about plugins that could not be read. */
  pluginProblems?: Array<{ file: string; problem: string }>;
  /** Claude Code only: its configuration folder exists (the user runs it here). */
  configDirExists?: boolean;
}

function codexTrust(env: NodeJS.ProcessEnv): CodexTrustStatus | undefined {
  const hooksFile = settingsPathFor('codex', env);
  let data: Record<string, unknown>;
  try {
    data = readSettingsFile(hooksFile).data;
  } catch {
    return undefined; // reported as the settings file's problem
  }
  const places = findKiokuHooks((data.hooks ?? {}) as Record<string, unknown>).map((f) => ({ ...f, event: f.native }));
  if (places.length === 0) return undefined;
  const report = codexHookTrust(hooksFile, path.join(path.dirname(hooksFile), 'config.toml'), places, env);
  const events = (state: CodexTrustState) => [...new Set(report.hooks.filter((h) => h.state === state).map((h) => h.event))];
  return {
    configFile: report.configFile,
    trusted: report.hooks.filter((h) => h.state === 'trusted').length,
    untrusted: events('untrusted'),
    modified: events('modified'),
    disabled: events('disabled'),
    ...(report.problem ? { problem: report.problem } : {}),
  };
}

export function hooksReport(env: NodeJS.ProcessEnv, cwd: string): HookReport[] {
  return hooksStatus(ASSISTANTS, { env }).map((h) => {
    const report: HookReport = {
      assistant: h.assistant,
      installed: h.installed,
      complete: h.complete,
      missingEvents: h.missingEvents,
      settingsFile: h.settingsFile,
      ...(h.problem ? { problem: h.problem } : {}),
    };
    if (h.assistant === 'codex' && h.installed) {
      const trust = codexTrust(env);
      if (trust) report.trust = trust;
    }
    if (h.assistant === 'claude') {
      const plugins = claudePluginHooks(path.dirname(h.settingsFile), cwd);
      report.plugins = plugins.plugins;
      report.pluginProblems = plugins.problems;
      report.configDirExists = plugins.configDirExists;
    }
    return report;
  });
}
