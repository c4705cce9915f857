import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatLocalDate } from '../../platform/config/clock.js';
import { redact } from '../../platform/privacy/redact.js';
import type { TurnInput } from './capture-types.js';

/**
 * The condensing prompt lives in resources/prompts/capture.zh-TW.md so it can be read and
 * reworded without touching code. It is found by walking up from this module: the same lookup
 * works from the sources (vitest), from dist/ and from a packaged app (resources/** ships beside
 * dist/, electron-builder.yml).
 */
export const CAPTURE_PROMPT_NAME = 'capture.zh-TW.md';

export function findPromptFile(
  name: string = CAPTURE_PROMPT_NAME,
  from: string = path.dirname(fileURLToPath(import.meta.url)),
): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'resources', 'prompts', name);
    if (fs.existsSync(file)) return file;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Each side of the turn is cut to this many characters (head and tail kept, the middle marked):
 * the prompt travels as one argv entry, which Linux caps at 128 KiB, and a long tool-heavy reply
 * rarely holds its gist in the middle.
 */
const SIDE_LIMIT = 6_000;

function fit(text: string): string {
  const chars = Array.from(text.trim());
  if (chars.length <= SIDE_LIMIT) return chars.join('');
  const head = chars.slice(0, SIDE_LIMIT - 1_500).join('');
  const tail = chars.slice(-1_200).join('');
  return `${head}\n…（中略 ${chars.length - SIDE_LIMIT + 300} 字）…\n${tail}`;
}

const CONSENT_LABEL: Record<TurnInput['consent'], string> = {
  accepted: 'accepted（已同意保存個人資料）',
  declined: 'declined（不同意保存個人資料）',
  unknown: 'unknown（尚未回答）',
};

/**
 * The filled prompt. The turn is redacted first (PRIV-1): secrets never leave for a model, even
 * one the user already talks to. Placeholders are replaced in one pass over the template, so a
 * `{{…}}` typed by the user stays literal text.
 */
export async function buildCapturePrompt(template: string, input: TurnInput): Promise<string> {
  const [userText, assistantText] = await Promise.all([redact(fit(input.userText)), redact(fit(input.assistantText))]);
  const values: Record<string, string> = {
    ROLE_NAME: input.roleName,
    ROLE_ID: input.roleId,
    CONSENT: CONSENT_LABEL[input.consent],
    TODAY: formatLocalDate(input.now),
    TRIGGER: input.trigger === 'pre-compact' ? '對話即將被壓縮（壓縮後內容無法補回，寧可多記）' : '一輪對話結束',
    RELATIONSHIP: input.relationship?.trim() ? input.relationship.trim().replace(/\n/g, '\n   ') : '（角色檔沒有關係定位段）',
    USER_TEXT: userText || '（無文字）',
    ASSISTANT_TEXT: assistantText || '（無文字）',
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
