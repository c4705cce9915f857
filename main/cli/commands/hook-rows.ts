import type { DiagnoseCheck } from '../../../common/ui-contract-notes-types.js';
import { hookChecks } from '../../core/hosts/status/hook-checks.js';
import type { StatusReport } from '../../core/hosts/status/status-report.js';

/**
 * The hooks rows of `kioku diagnose`, worded in English from the same codes the app words
 * (main/core/hosts/status/hook-checks.ts), so the terminal and the status page cannot disagree.
 * The first three keep the exact text they had before issue 13: scripts read them.
 */
export interface HookRow {
  mark: '✓' | '✗' | '–';
  label: string;
  text: string;
  fix?: string;
}

const LABEL = 'hook 註冊 hooks';
const MARKS = { ok: '✓', fail: '✗', info: '–' } as const;
const TRUST_FIX =
  'open Codex, type `/hooks`, pick each Kioku hook and press `t` to trust it (or answer "Trust all and continue" when Codex asks at start), then start a new Codex session';
const FILE_FIX = 'fix that file by hand (the assistant reads it too), then run `kioku diagnose` again';

type Words = { text: string; fix?: string };

function words(check: DiagnoseCheck): Words {
  const p = check.params as Record<string, string>;
  switch (check.code) {
    case 'hooks.none':
      return { text: 'no assistant has Kioku hooks', fix: '`kioku hooks install` (then restart the assistant)' };
    case 'hooks.ok':
      return { text: `${p.assistant}: ${p.file}` };
    case 'hooks.incomplete':
      return { text: `${p.assistant}: missing ${p.missing}`, fix: `\`kioku hooks install --assistant ${p.assistant}\`` };
    case 'hooks.unreadable':
      return { text: `${p.assistant}: cannot read ${p.file}: ${p.problem}`, fix: FILE_FIX };
    case 'hooks.codexTrusted':
      return { text: `codex: Kioku's ${p.count} hook(s) are trusted in /hooks (${p.file})` };
    case 'hooks.codexUntrusted':
      return {
        text: `codex: not trusted yet in /hooks: ${p.events} — Codex skips hooks you have not trusted, without a word (trust is kept in ${p.file})`,
        fix: TRUST_FIX,
      };
    case 'hooks.codexModified':
      return {
        text: `codex: changed since you trusted them (e.g. by \`kioku hooks install\`): ${p.events} — Codex runs them only once trusted again`,
        fix: TRUST_FIX,
      };
    case 'hooks.codexDisabled':
      return {
        text: `codex: turned off in /hooks: ${p.events} (enabled = false in ${p.file})`,
        fix: 'open Codex, type `/hooks` and turn the Kioku hooks back on (space), then start a new Codex session',
      };
    case 'hooks.codexTrustUnknown':
      return { text: `codex: cannot tell whether Codex trusts Kioku's hooks: ${p.file} ${p.problem}`, fix: FILE_FIX };
    case 'hooks.plugin':
      return { text: `${p.assistant}: plugin ${p.plugin} (${p.scope}) — ${p.path}` };
    case 'hooks.pluginIncomplete':
      return {
        text: `${p.assistant}: plugin ${p.plugin} lacks ${p.missing}`,
        fix: `\`claude plugin update ${p.plugin}\`, then restart Claude Code`,
      };
    case 'hooks.pluginDisabled':
      return {
        text: `${p.assistant}: plugin ${p.plugin} is installed (${p.scope}) but disabled (enabledPlugins in ${p.file})`,
        fix: `\`${p.command}\` (or /plugin in Claude Code), then restart Claude Code`,
      };
    case 'hooks.twice':
      return {
        text: `${p.assistant}: Kioku's hooks are both in ${p.file} and in the enabled plugin ${p.plugin}, so every event runs twice`,
        fix: `keep one: \`kioku hooks uninstall --assistant ${p.assistant}\`, or \`claude plugin disable ${p.plugin}\``,
      };
    case 'hooks.pluginDir':
      return {
        text: `${p.assistant}: no Kioku hooks in its settings or an installed plugin; a plugin loaded with \`claude --plugin-dir <folder>\` lasts for that one run and leaves nothing to check here (if you start Claude Code that way, its hooks do run)`,
      };
    default:
      return { text: check.code };
  }
}

export function hookRows(report: StatusReport): HookRow[] {
  return hookChecks(report.hooks).map((check) => ({ mark: MARKS[check.mark], label: LABEL, ...words(check) }));
}
