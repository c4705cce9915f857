import { say, languageOfRole, type ContextLanguage } from '../../platform/text/context-language.js';
import { stringifyFrontmatter } from '../../platform/frontmatter/stringify-frontmatter.js';
import { firstLine, type RoleDefinition } from '../../store/roles/role-definition.js';

/**
 * The text of a Claude Code sub-agent file for a role (ROLE-11).
 * Design notes: docs/design-notes.md, "main/core/integrations/setup/role-agent-text.ts".
 */
export interface AgentTextOptions {
  /** Claude Code tool names; undefined: no `tools` line (every tool of the parent). */
  tools?: string[];
  /** How to run Kioku when `kioku` is not on PATH, best first (launcher, `node <entry>`). */
  fallbacks: string[];
  /** `ROLE_HOME=… ROLE_MEMORY_HOME=…` to put before each command when the homes were set explicitly. */
  envPrefix: string;
}

const DESCRIPTION_NATURE_CHARS = 120;

/** Claude Code sub-agent names: lowercase letters, digits and hyphens (ASSISTANTS.md). */
export function agentNameFor(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

function describe(role: RoleDefinition, language: ContextLanguage): string {
  const nature = firstLine(role.nature).replace(/\s+/g, ' ');
  const short = nature.length > DESCRIPTION_NATURE_CHARS ? `${nature.slice(0, DESCRIPTION_NATURE_CHARS - 1)}…` : nature;
  return say(
    language,
    `${role.name}（${role.id}）：${short} 需要${role.name}的專長、或有人想請${role.name}幫忙時，派這個角色。`,
    `${role.name} (${role.id}): ${short} Send this role when ${role.name}'s skills are needed or someone asks ${role.name} for help.`,
  );
}

function commandBlock(lines: string[]): string {
  return ['```bash', ...lines, '```'].join('\n');
}

export function renderAgentFile(role: RoleDefinition, options: AgentTextOptions): string {
  const language = languageOfRole(role);
  const z = (zh: string, en: string) => say(language, zh, en);
  const env = `${options.envPrefix}ROLE_SKIP_INSTANCE_LOCK=1 `;
  const recall = `${env}kioku memory recall --role ${role.id} --query "${z('<這次任務的關鍵詞>', '<keywords of this task>')}" --limit 8`;
  const remember = `${env}kioku memory remember --role ${role.id} --tags ${z('協作,派工', 'delegation')} --text "${z('<誰派我做什麼、結果如何>', '<who asked me what, and how it went>')}"`;
  const fallback = options.fallbacks.length
    ? z(
        `找不到 \`kioku\` 指令時，把 \`kioku\` 換成：${options.fallbacks.map((item) => `\`${item}\``).join('，再不行用 ')}。`,
        `If there is no \`kioku\` command, use ${options.fallbacks.map((item) => `\`${item}\``).join(', else ')} in its place.`,
      )
    : '';
  const who = `${role.name}${role.emoji ? ` ${role.emoji}` : ''}`;
  const body = [
    z(
      `<!-- 由 \`kioku role agent ${role.id}\` 產生；角色檔改過後請重新匯出。 -->`,
      `<!-- Written by \`kioku role agent ${role.id}\`; export again after the role changes. -->`,
    ),
    `# ${who}${z(`（${role.id}）`, ` (${role.id})`)}`,
    z(
      `你是${role.name}（角色 ID：${role.id}），被使用者或其他角色派來協助一件工作。以下的人格只影響表達方式，不降低工作品質。`,
      `You are ${role.name} (role ID: ${role.id}), sent by the user or another role to help with one task. The persona below shapes how you speak, never the quality of the work.`,
    ),
    `## ${z('本質', 'Nature')}\n\n${role.nature}`,
    `## ${z('氛圍', 'Vibe')}\n\n${role.vibe}`,
    `## ${z('開工前：載入自己的記憶', 'Before you start: load your own memory')}\n\n${z(
      'sub agent 不會觸發 SessionStart，人格以外的記憶要自己取。先用這次任務的關鍵詞查自己的記憶：',
      'A sub agent gets no SessionStart, so fetch your memory yourself. First search it with the keywords of this task:',
    )}\n\n${commandBlock([recall])}${fallback ? `\n\n${fallback}` : ''}`,
    `## ${z('收工前：寫回自己的記憶', 'Before you finish: write back to your memory')}\n\n${z(
      '把「誰派我做什麼、結果如何」寫成一則記憶（一兩句，照實寫，包含沒做完或失敗的部分）：',
      'Record "who asked me what, and how it went" as one memory (a sentence or two, honestly, including what failed or is unfinished):',
    )}\n\n${commandBlock([remember])}`,
    `## ${z('記憶歸屬', 'Whose memory')}\n\n${z(
      `這些記憶屬於${role.name}（${role.id}）。只用 \`--role ${role.id}\` 讀寫自己的記憶，不讀也不改其他角色的記憶檔；需要別的角色知道的事，寫在回報裡，由派你的人轉達。`,
      `This memory belongs to ${role.name} (${role.id}). Read and write only your own, with \`--role ${role.id}\`; never read or change another role's memory files. What another role should know goes into your report, for whoever sent you to pass on.`,
    )}`,
    `## ${z('邊界', 'Boundaries')}\n\n${[
      z('- 回報就是回傳值：直接寫結果，不寒暄。', '- Your report is the return value: give the result, no small talk.'),
      z(
        '- 照實回報壞消息：失敗、沒做完、不確定的地方都寫出來。',
        '- Report bad news plainly: failures, unfinished parts and doubts included.',
      ),
      z(
        '- 不可再往下派工：你已經是被派出來的那一層，不可以再呼叫其他 sub agent（不能有第三層）。',
        '- Do not delegate further: you are already the delegated level; never start another sub agent (no third level).',
      ),
      z(
        '- 程式碼、指令與錯誤訊息照實輸出，不加角色語氣、不改寫。',
        '- Code, commands and error messages verbatim: no persona voice, no rewording.',
      ),
    ].join('\n')}`,
  ].join('\n\n');
  const frontmatter: Record<string, unknown> = { name: agentNameFor(role.id), description: describe(role, language) };
  if (options.tools?.length) frontmatter.tools = options.tools.join(', ');
  return stringifyFrontmatter(frontmatter, `${body}\n`);
}
