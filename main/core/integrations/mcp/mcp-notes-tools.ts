import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CLEANED_NOTICE } from '../../store/notes/clean-notes-text.js';
import {
  FACT_MAX_BYTES,
  FACT_MAX_LINES,
  PROJECT_MEMORY_MAX_CHARS,
  factsUsageText,
  projectMemoryUsageText,
} from '../../store/notes/notes-limits.js';
import { readFacts, updateFacts } from '../../store/notes/facts-file.js';
import { appendJournal } from '../../store/notes/journal.js';
import { searchJournal } from '../../store/notes/journal-search.js';
import { readProjectMemoryFile, updateProjectMemory } from '../../store/notes/project-memory.js';
import { guarded, textResult, warningLines, type McpToolContext } from './mcp-tool-kit.js';

/**
 * The notes-skill layers as MCP tools (DSH-1/2/3): global facts, project memory, journal. The notes skill's
 * `memory` tool (DSH-6) had one tool with actions; here each action is its own tool so the description
 * can say exactly when to use it and what the limits are.
 */
const JOURNAL_SEARCH_DEFAULT = 10;
const JOURNAL_SEARCH_MAX = 50;

function journalLine(entry: { ts: string; tags: string[]; text: string }): string {
  const tags = entry.tags.length ? `  ${entry.tags.map((tag) => `#${tag}`).join(' ')}` : '';
  return `[${entry.ts || '時間不明'}]${tags}\n${entry.text}`;
}

export function registerNotesTools(server: McpServer, ctx: McpToolContext): void {
  const { logger } = ctx;

  server.registerTool(
    'facts_read',
    {
      title: '讀取全域事實 FACT.md',
      description: `Read the user's global facts (FACT.md): stable facts that hold across every project and every role, already injected at the start of main sessions. Returns the whole text and its usage against both limits (${FACT_MAX_LINES} lines AND ${FACT_MAX_BYTES} UTF-8 bytes). Call this before facts_update, because an update replaces the whole file.`,
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    guarded('facts_read', logger, () => {
      const facts = readFacts(ctx.config.paths);
      const usage = factsUsageText(facts.usage);
      const over = facts.usage.over.length ? `\n⚠ 已超過上限（${facts.usage.over.join('、')}）：下次更新必須先刪減。` : '';
      const text = facts.exists
        ? `FACT.md（${facts.path}）：${usage}${over}\n\n${facts.text}`
        : `尚無全域事實：${facts.path} 不存在（${usage}）。用 facts_update 建立。`;
      return textResult(text, { path: facts.path, exists: facts.exists, text: facts.text, usage: facts.usage });
    }),
  );

  server.registerTool(
    'facts_update',
    {
      title: '整篇更新全域事實 FACT.md',
      description: `Replace the whole global facts file (FACT.md) with \`text\`. Only for facts that hold across all projects (the user's name, preferences, environment); anything about one project belongs in project_memory_update, one-off events in journal_append. REFUSED, file unchanged, above ${FACT_MAX_LINES} lines or ${FACT_MAX_BYTES} UTF-8 bytes (a Chinese character is 3 bytes; \\r\\n counts as \\n; a final newline does not start a new line) — so call facts_read first, edit that text, keep it short, and send the whole result. Secrets are masked and Simplified Chinese converted to Traditional before writing; the reply says when that changed the text. Takes effect in new sessions.`,
      inputSchema: { text: z.string().describe('the complete new FACT.md text (Markdown), not a diff') },
    },
    guarded('facts_update', logger, async ({ text }: { text: string }) => {
      const result = await updateFacts(ctx.config.paths, text);
      const cleaned = result.changedByCleaning ? `\n${CLEANED_NOTICE}` : '';
      return textResult(
        `FACT.md 已${result.created ? '建立' : '更新'}：${factsUsageText(result.usage)}（${result.path}）。新的工作階段才會載入。${cleaned}${warningLines(result.warnings)}`,
        {
          path: result.path,
          created: result.created,
          usage: result.usage,
          changedByCleaning: result.changedByCleaning,
          warnings: result.warnings,
        },
      );
    }),
  );

  const projectArg = z.string().optional().describe("the project folder (default: the session's project folder)");

  server.registerTool(
    'project_memory_read',
    {
      title: '讀取專案記憶 MEMORY.md',
      description: `Read this project's MEMORY.md (conventions and facts of this repository, injected at session start when it exists). Returns the text and its usage against the ${PROJECT_MEMORY_MAX_CHARS}-character limit, or says that the file does not exist (it is never created by reading). Call before project_memory_update.`,
      inputSchema: { project: projectArg },
      annotations: { readOnlyHint: true },
    },
    guarded('project_memory_read', logger, ({ project }: { project?: string }) => {
      const memory = readProjectMemoryFile(project ?? ctx.projectDir);
      const usage = projectMemoryUsageText(memory.usage);
      const over = memory.usage.over ? '\n⚠ 已超過上限：下次更新必須先刪減，或把細節移到日誌（journal_append）。' : '';
      const text = memory.exists
        ? `專案記憶（${memory.path}）：${usage}${over}\n\n${memory.text}`
        : `這個專案沒有 MEMORY.md（${memory.path} 不存在）。需要時用 project_memory_update 建立。`;
      return textResult(text, {
        project: memory.project,
        path: memory.path,
        exists: memory.exists,
        text: memory.text,
        usage: memory.usage,
      });
    }),
  );

  server.registerTool(
    'project_memory_update',
    {
      title: '整篇更新專案記憶 MEMORY.md',
      description: `Replace this project's MEMORY.md with \`text\` (creates it when missing — only do that when the user wants project memory). For conventions and facts every session in this repository needs. REFUSED, file unchanged, above ${PROJECT_MEMORY_MAX_CHARS} characters (Unicode characters of the trimmed text; one Chinese character = 1): read it first with project_memory_read, edit, send the whole text; move long notes to journal_append, which has no limit. Secrets are masked and Simplified converted to Traditional before writing.`,
      inputSchema: { text: z.string().describe('the complete new MEMORY.md text, not a diff'), project: projectArg },
    },
    guarded('project_memory_update', logger, async ({ text, project }: { text: string; project?: string }) => {
      const result = await updateProjectMemory(project ?? ctx.projectDir, text);
      const cleaned = result.changedByCleaning ? `\n${CLEANED_NOTICE}` : '';
      return textResult(
        `專案記憶已${result.created ? '建立' : '更新'}：${projectMemoryUsageText(result.usage)}（${result.path}）。${cleaned}${warningLines(result.warnings)}`,
        {
          project: result.project,
          path: result.path,
          created: result.created,
          usage: result.usage,
          changedByCleaning: result.changedByCleaning,
          warnings: result.warnings,
        },
      );
    }),
  );

  server.registerTool(
    'journal_append',
    {
      title: '寫一筆日誌',
      description:
        'Append one entry to the journal (JOURNAL.jsonl): one-off events, session notes, pitfalls found, decisions and why — anything worth finding later that is not a stable fact. No size limit, never injected into prompts, found again with journal_search. Secrets are masked and Simplified converted to Traditional. Returns the stored entry.',
      inputSchema: {
        text: z.string().min(1).describe('the note, as much as needed'),
        tags: z.array(z.string()).optional().describe('a few short tags, e.g. ["部署", "ci"] (no # needed)'),
      },
    },
    guarded('journal_append', logger, async ({ text, tags }: { text: string; tags?: string[] }) => {
      const result = await appendJournal(ctx.config, { text, tags: tags ?? [] });
      const cleaned = result.changedByCleaning ? `\n${CLEANED_NOTICE}` : '';
      return textResult(`已寫入日誌：\n${journalLine(result.entry)}${cleaned}${warningLines(result.warnings)}`, {
        path: result.path,
        entry: result.entry,
        changedByCleaning: result.changedByCleaning,
      });
    }),
  );

  server.registerTool(
    'journal_search',
    {
      title: '搜尋日誌',
      description: `Search the journal (JOURNAL.jsonl), newest first. Use it whenever "we may have discussed this before" or a past pitfall might repeat. \`query\` is matched as a substring (Chinese needs no spaces; width and case are ignored; Simplified finds Traditional); several space-separated words must all match. \`tag\` keeps only entries with that tag. With neither, the newest entries. Returns at most \`limit\` entries (default ${JOURNAL_SEARCH_DEFAULT}, at most ${JOURNAL_SEARCH_MAX}) with their time and tags.`,
      inputSchema: {
        query: z.string().optional().describe('text to look for, e.g. 部署流程'),
        tag: z.string().optional().describe('only entries with this tag'),
        limit: z.number().int().min(1).max(JOURNAL_SEARCH_MAX).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    guarded('journal_search', logger, async ({ query, tag, limit }: { query?: string; tag?: string; limit?: number }) => {
      const result = await searchJournal(ctx.config.paths.journalFile, { query, tag, limit: limit ?? JOURNAL_SEARCH_DEFAULT });
      const what =
        [query?.trim() ? `「${query.trim()}」` : '', tag?.trim() ? `#${tag.trim().replace(/^#+/, '')}` : ''].filter(Boolean).join(' ') ||
        '全部';
      const corrupt = result.corrupt ? `\n（略過 ${result.corrupt} 行無法解析的內容，行號 ${result.corruptLines.join(', ')}）` : '';
      const head = result.matched
        ? `日誌中符合 ${what} 的 ${result.matched} 筆（共 ${result.total} 筆），${result.entries.length < result.matched ? `最新的 ${result.entries.length} 筆` : '由新到舊'}：`
        : `日誌中沒有符合 ${what} 的內容（共 ${result.total} 筆）。`;
      const body = result.entries.map(journalLine).join('\n\n');
      return textResult(`${head}${corrupt}${body ? `\n\n${body}` : ''}`, {
        entries: result.entries.map(({ ts, tags, text }) => ({ ts, tags, text })),
        matched: result.matched,
        total: result.total,
        corrupt: result.corrupt,
      });
    }),
  );
}
