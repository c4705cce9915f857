import { MEMORY_TYPE_LABELS } from '../../../../common/memory.js';
import type { QueuedOutcome } from './demo-capture.js';
import type { DemoReport, DemoStep } from './demo-types.js';
import type { HookRun } from './hook-process.js';
import { groupDigits } from '../../platform/text/group-digits.js';

/**
 * The narration of `kioku demo`: zh-TW first with short English glosses, one block per step,
 * printed as each step finishes. Long hook output is cut with its full size stated; only the
 * final injection is shown whole, since it is what the demo is for.
 */
const PREVIEW_CHARS = 600;
const BAR = '   │ ';

const count = (text: string) => Array.from(text).length;
const n = groupDigits;

function quoted(text: string, max?: number): string {
  const chars = Array.from(text.replace(/\s+$/, ''));
  const shown = max !== undefined && chars.length > max ? chars.slice(0, max).join('') : chars.join('');
  return shown
    .split('\n')
    .map((line) => `${BAR}${line}`.trimEnd())
    .join('\n');
}

function stdoutBlock(run: HookRun, full: boolean): string[] {
  const size = count(run.stdout);
  if (size === 0) return [];
  const cut = !full && size > PREVIEW_CHARS;
  const head = cut
    ? `   stdout（${n(size)} 字元，只顯示前 ${PREVIEW_CHARS} / ${n(size)} chars, first ${PREVIEW_CHARS} shown）：`
    : `   stdout（${n(size)} 字元 / chars${full ? '，全文 in full' : ''}）：`;
  return [
    head,
    quoted(run.stdout, full ? undefined : PREVIEW_CHARS),
    ...(cut ? [`${BAR}…（以下省略 ${n(size - PREVIEW_CHARS)} 字元 / ${n(size - PREVIEW_CHARS)} more chars）`] : []),
  ];
}

function stderrLine(run: HookRun): string[] {
  const text = run.stderr.trim();
  return text ? [`     stderr：${Array.from(text).slice(0, 300).join('')}`] : [];
}

const SKIP_REASONS: Record<string, string> = {
  'too-short': '太短，也沒有記憶線索 (too short, no memory cue)',
  empty: '沒有文字 (empty)',
  disabled: '記憶記錄已關閉 (capture disabled)',
  'user-asked-not-to-remember': '使用者說不要記 (the user asked not to remember)',
  'already-captured': '已經記過 (already captured)',
};

function captureResult(outcome: QueuedOutcome): string {
  if (outcome.written.length)
    return `寫入收件匣 ${outcome.written.length} 則 (${outcome.written.length} written to the inbox)：${outcome.written.join('、')}`;
  const reason = outcome.log.map((line) => /skipped \(([^)]+)\)/.exec(line)?.[1]).find(Boolean);
  if (reason) return `沒有保存：${SKIP_REASONS[reason] ?? reason}`;
  return `沒有保存 (nothing kept)${outcome.log.length ? `：${outcome.log.join('; ')}` : ''}`;
}

export interface DemoNarrator {
  step(step: DemoStep): string;
  end(report: Pick<DemoReport, 'home' | 'kept'>): string;
}

export function createDemoNarrator(): DemoNarrator {
  let roleName = '角色';

  const render = (step: DemoStep): string[] => {
    switch (step.id) {
      case 'home':
        return [
          'Kioku 示範 (demo)：在用完即丟的家目錄裡，從頭到尾跑一次真實流程',
          `示範家目錄 (throw-away home)：${step.home}`,
          `   角色 ROLE_HOME=${step.roleHome}/  記憶 ROLE_MEMORY_HOME=${step.memoryHome}/  專案 (project)=${step.projectDir}/`,
          '   你自己的 ~/.roles 與 ~/.memory 不會被讀取或修改 (your real homes are never touched)',
          `   時間 (clock)：${step.now}${step.clockFixed ? '（KIOKU_NOW 固定 / fixed）' : ''}；睡眠時段已關閉 (no sleep window)`,
          `   hook client：${step.hookClient}`,
        ];
      case 'role':
        roleName = step.name;
        return [
          '1. 建立角色 (create a role)',
          `   ${step.name} ${step.emoji}（${step.roleId}）`,
          `   本質 (nature)：${step.nature}`,
          `   氛圍 (vibe)：${step.vibe}`,
          `   檔案 (files)：${step.files.join('、')}`,
          `   記憶資料夾 (memory folder)：${step.memoryDir}/`,
          ...(step.active ? ['   已設為啟用角色 (now the active role)：SessionStart 會載入它'] : []),
        ];
      case 'seed':
        return [
          '2. 種下背景記憶 (seed a background memory)',
          '   建立角色時使用者同意的背景，直接寫成長期記憶，不經過收件匣 (long-term at once, skips the inbox)',
          `   ${step.file}`,
          `   「${step.summary}」`,
        ];
      case 'session-start':
        return [
          '3. 開始工作階段 (SessionStart, source=startup)',
          `   $ node kioku-hook.js session-start --assistant claude  < Claude Code 的 hook JSON (the hook payload)`,
          '   沒有 daemon 在跑，hook client 直接從檔案算出答案 (no daemon running: the client answers from the files)',
          ...stdoutBlock(step.hook, false),
          ...stderrLine(step.hook),
        ];
      case 'turn':
        return [
          ...(step.index === 0 ? ['4. 重播對話 (replay the session through the real hook client)'] : []),
          `   第 ${step.index + 1} 輪 (turn ${step.index + 1})：${step.shows}`,
          `     使用者 (user)：${step.user}`,
          `     ${roleName} (assistant)：${step.assistant}`,
          `     UserPromptSubmit → ${step.prompt.stdout.trim() ? `注入 ${n(count(step.prompt.stdout))} 字元 (injected)` : '無輸出：不是點名，不注入 (no output: not a call by name)'}`,
          ...stderrLine(step.prompt),
          `     transcript ← 寫入 ${step.transcriptLines} 行 Claude JSONL (${step.transcriptLines} lines)`,
          `     Stop → 放進佇列 (spooled)：${step.spoolPending} 筆等待處理 (${step.spoolPending} waiting)`,
          ...stderrLine(step.stop),
          ...step.captured.map((outcome) => `     處理佇列 (capture) → ${captureResult(outcome)}`),
        ];
      case 'session-end':
        return [
          '5. 結束工作階段 (SessionEnd)',
          step.lockReleased
            ? `   角色鎖已釋放，下一個工作階段才叫得到${roleName} (role lock released)`
            : '   角色鎖還在 (the role lock is still held)',
          `   佇列 (spool)：${step.spoolPending} 筆 → 已處理 ${step.captured.length} 筆；SessionEnd 不產生記憶 (processed; SessionEnd writes no memory)`,
          ...stderrLine(step.hook),
        ];
      case 'inbox':
        return [
          '6. 收件匣裡有什麼 (what capture wrote to the inbox)',
          `   佇列共處理 ${step.handled} 筆、失敗 ${step.failed} 筆 (handled ${step.handled}, failed ${step.failed})；下次睡眠時段會整理成長期記憶 (consolidated at the next sleep)`,
          ...step.entries.flatMap((entry) => [
            `   • [${MEMORY_TYPE_LABELS[entry.memoryType].zh} ${entry.memoryType}・優先度 priority ${entry.priority}] ${entry.summary}`,
            `     ${entry.file}`,
            ...entry.body.split('\n').map((line) => `     ${line}`),
          ]),
        ];
      case 'next-session':
        return [
          '7. 下一個工作階段會注入什麼 (what the next SessionStart injects)',
          `   新的工作階段，同一個專案 (a new session, same project)：${step.sessionId}`,
          ...stdoutBlock(step.hook, true),
          ...stderrLine(step.hook),
        ];
    }
  };

  return {
    step: (step) => `${render(step).join('\n')}\n`,
    end: (report) =>
      [
        '完成 (done) ✓',
        report.kept
          ? `示範家目錄保留在 (kept)：${report.home}\n   看完可刪除 (remove when done)：rm -rf '${report.home}'，或下次加 --clean`
          : `示範家目錄已刪除 (removed, --clean)：${report.home}`,
      ].join('\n'),
  };
}
