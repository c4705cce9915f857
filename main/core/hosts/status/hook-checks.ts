import type { DiagnoseCheck } from '../../../../common/ui-contract-notes-types.js';
import type { HookReport } from './hooks-report.js';

/**
 * The hooks rows of the diagnose checklist (OPS-1) as codes and values, shared by the app
 * (diagnose-checks.ts) and `kioku diagnose` (status-output.ts words them), so the two say the
 * same thing. Before issue 13 a row said "installed" whenever the settings file held Kioku's
 * entries; now it also says when the assistant will not run them (Codex hooks not trusted in
 * `/hooks`, a disabled Claude Code plugin) and counts hooks that come from a plugin.
 */
type Params = DiagnoseCheck['params'];
const row = (mark: DiagnoseCheck['mark'], code: DiagnoseCheck['code'], params: Params = {}): DiagnoseCheck => ({
  area: 'hooks',
  code,
  mark,
  params,
});

/** The reason of a settings-file error without the file's name and the installer's "changed nothing". */
function reason(problem: string, file: string): string {
  const own = problem.startsWith(`${file} `) ? problem.slice(file.length + 1) : problem;
  return own.replace(/; Kioku changed nothing$/, '');
}

function unreadableRows(hooks: readonly HookReport[]): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  for (const hook of hooks) {
    if (hook.problem)
      rows.push(
        row('fail', 'hooks.unreadable', {
          assistant: hook.assistant,
          file: hook.settingsFile,
          problem: reason(hook.problem, hook.settingsFile),
        }),
      );
    for (const p of hook.pluginProblems ?? [])
      rows.push(row('fail', 'hooks.unreadable', { assistant: hook.assistant, file: p.file, problem: reason(p.problem, p.file) }));
  }
  return rows;
}

/** Will Codex run the entries it has? It runs only hooks the user trusted in `/hooks`. */
function codexTrustRows(hook: HookReport): DiagnoseCheck[] {
  const trust = hook.trust;
  if (!trust) return [];
  const file = trust.configFile;
  if (trust.problem) return [row('fail', 'hooks.codexTrustUnknown', { file, problem: trust.problem })];
  const rows: DiagnoseCheck[] = [];
  if (trust.untrusted.length) rows.push(row('fail', 'hooks.codexUntrusted', { events: trust.untrusted.join(', '), file }));
  if (trust.modified.length) rows.push(row('fail', 'hooks.codexModified', { events: trust.modified.join(', '), file }));
  if (trust.disabled.length) rows.push(row('fail', 'hooks.codexDisabled', { events: trust.disabled.join(', '), file }));
  if (rows.length === 0) rows.push(row('ok', 'hooks.codexTrusted', { count: trust.trusted, file }));
  return rows;
}

/** Claude Code plugins that bring Kioku's hooks: counted as installed when enabled. */
function pluginRows(hook: HookReport, noneAnywhere: boolean): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  const plugins = hook.plugins ?? [];
  const enabled = plugins.filter((p) => p.enabled);
  for (const p of enabled) {
    if (p.missingEvents.length === 0)
      rows.push(row('ok', 'hooks.plugin', { assistant: hook.assistant, plugin: p.id, scope: p.scope, path: p.root }));
    else rows.push(row('fail', 'hooks.pluginIncomplete', { assistant: hook.assistant, plugin: p.id, missing: p.missingEvents.join(', ') }));
  }
  if (hook.installed && enabled.length > 0) {
    rows.push(
      row('fail', 'hooks.twice', { assistant: hook.assistant, plugin: enabled.map((p) => p.id).join(', '), file: hook.settingsFile }),
    );
  }
  if (hook.installed || enabled.length > 0) return rows;
  for (const p of plugins) {
    const scope = p.scope === 'project' || p.scope === 'local' ? ` --scope ${p.scope}` : '';
    rows.push(
      row('fail', 'hooks.pluginDisabled', {
        assistant: hook.assistant,
        plugin: p.id,
        scope: p.scope,
        file: p.decidedBy ?? hook.settingsFile,
        command: `claude plugin enable ${p.id}${scope}`,
      }),
    );
  }
  // `claude --plugin-dir <folder>` loads a plugin for one run and writes nothing down.
  if (plugins.length === 0 && (noneAnywhere || hook.configDirExists))
    rows.push(row('info', 'hooks.pluginDir', { assistant: hook.assistant }));
  return rows;
}

export function hookChecks(hooks: readonly HookReport[]): DiagnoseCheck[] {
  const rows = unreadableRows(hooks);
  const viaPlugin = hooks.some((h) => (h.plugins ?? []).some((p) => p.enabled));
  const noneAnywhere = !hooks.some((h) => h.installed) && !viaPlugin;
  if (noneAnywhere) rows.push(row('fail', 'hooks.none'));
  for (const hook of hooks) {
    if (hook.installed) {
      if (hook.complete) rows.push(row('ok', 'hooks.ok', { assistant: hook.assistant, file: hook.settingsFile }));
      else rows.push(row('fail', 'hooks.incomplete', { assistant: hook.assistant, missing: hook.missingEvents.join(', ') }));
      rows.push(...codexTrustRows(hook));
    }
    if (hook.assistant === 'claude') rows.push(...pluginRows(hook, noneAnywhere));
  }
  return rows;
}
