import fs from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ALL_CATEGORIES, MEMORY_TYPES } from '../../../../common/memory.js';
import { BOND_DIRECTION_LABELS, BONDS_KEPT, readBonds } from '../../store/memory/bonds-reader.js';
import { grantNote } from '../../store/memory/grant-scope.js';
import { sessionProject } from '../../engine/context/session-project.js';
import { guarded, textResult, warningLines, type McpToolContext } from './mcp-tool-kit.js';

/**
 * The role's long-term memory as MCP tools: recall (MEM-4), remember (CAP-7), bonds (MEM-7) and
 * the probes of fuzzy memories (PM-4). The index (SQLite) and the write path (secretlint, OpenCC)
 * are imported inside the handlers, so the server starts fast and a tool that needs neither never
 * pays for them.
 */
const RECALL_DEFAULT = 5;
const RECALL_MAX = 20;
const BONDS_DEFAULT = 15;
/** Enough of a memory's body for the model to use it without opening the file. */
const BODY_PREVIEW_CHARS = 400;

const roleArg = z
  .string()
  .optional()
  .describe("role ID or display name (default: this session's role, else ROLE_NAME, else the active role)");

async function bodyPreview(file: string): Promise<string> {
  try {
    const { parseMemory } = await import('../../store/memory/memory-file.js');
    const body = parseMemory(fs.readFileSync(file, 'utf8')).body.trim();
    const chars = [...body];
    return chars.length > BODY_PREVIEW_CHARS ? `${chars.slice(0, BODY_PREVIEW_CHARS).join('')}…` : body;
  } catch {
    return '';
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `   ${line}`)
    .join('\n');
}

/** Issue 12: the client session's project (git top level of its folder), for recall order and remember. */
function projectOf(ctx: McpToolContext): { project?: string } {
  const project = sessionProject(ctx.config.env, ctx.projectDir);
  return project ? { project } : {};
}

export function registerMemoryTools(server: McpServer, ctx: McpToolContext): void {
  const { logger, config } = ctx;

  server.registerTool(
    'recall',
    {
      title: '回想記憶',
      description: `Search the role's long-term memories (summary, tags, body, cues; the unconsolidated inbox too) before answering anything where what the user told you earlier matters: their preferences, past decisions, people, how a procedure goes. Chinese and Japanese match without spaces; Simplified finds Traditional. Best match first, at most \`limit\` (default ${RECALL_DEFAULT}, at most ${RECALL_MAX}); each returned memory counts as recalled (it grows stronger). Returns summary, category/type, priority, id (for probe_*), path and the start of the body.`,
      inputSchema: {
        query: z.string().min(1).describe('what to look for, e.g. 部署流程 or 咖啡'),
        role: roleArg,
        limit: z.number().int().min(1).max(RECALL_MAX).optional(),
      },
    },
    guarded('recall', logger, async ({ query, role, limit }: { query: string; role?: string; limit?: number }) => {
      const who = ctx.role(role);
      const [{ openMemoryIndex }, { recall }, { recallQueryInStoredScript }] = await Promise.all([
        import('../../store/index/memory-index.js'),
        import('../../store/index/recall.js'),
        import('../../store/index/recall-query-script.js'),
      ]);
      const storedQuery = await recallQueryInStoredScript(query);
      const index = openMemoryIndex(config.paths, logger);
      let result;
      try {
        result = recall(index, {
          role: who.id,
          query: storedQuery,
          limit: limit ?? RECALL_DEFAULT,
          clock: config.clock,
          ...projectOf(ctx),
        });
      } finally {
        index.close();
      }
      for (const problem of result.problems) logger.warn('mcp', `recall skipped ${problem.path}: ${problem.message}`);
      const memories = await Promise.all(
        result.memories.map(async (m) => ({
          id: m.id,
          summary: m.summary,
          category: m.category,
          memory_type: m.memory_type,
          priority: m.priority,
          tags: m.tags,
          path: m.path,
          score: m.score,
          body: await bodyPreview(m.path),
          ...(m.grant ? { grant: m.grant } : {}),
        })),
      );
      const locked = result.writeBack === 'skipped-locked' ? '\n（記憶正在整理中，這次回想沒有記錄次數。）' : '';
      const text = memories.length
        ? `角色 ${who.id} 符合「${query}」的記憶 ${memories.length} 筆（最相關在前）：\n` +
          memories
            .map((m, i) => {
              const tags = m.tags.length ? `  ${m.tags.map((t) => `#${t}`).join(' ')}` : '';
              const body = m.body && m.body !== m.summary ? `\n${indent(m.body)}` : '';
              // MEM-8 (issue 12): a temporary grant is never read as a standing rule.
              const grant = m.grant ? `\n   ${grantNote(m.grant)}` : '';
              return `${i + 1}. ${m.summary}\n   ${m.category}/${m.memory_type} · 優先 ${m.priority} · id ${m.id}${tags}${grant}${body}`;
            })
            .join('\n') +
          locked
        : `角色 ${who.id} 沒有符合「${query}」的記憶。`;
      return textResult(text, { role: who.id, roleSource: who.source, query, memories });
    }),
  );

  server.registerTool(
    'remember',
    {
      title: '記住一件事',
      description:
        'Write a memory for the role now, when the user explicitly asks you to remember something ("記住…", "以後都…") or states a lasting preference or rule. It goes to the inbox by default and is consolidated at the next sleep. Secrets are masked and Simplified converted to Traditional. Do not announce it at length; a short acknowledgement is enough. Returns the new memory\'s id and path.',
      inputSchema: {
        text: z.string().min(1).describe("what to remember, in the user's words where possible"),
        role: roleArg,
        category: z
          .enum(ALL_CATEGORIES as unknown as [string, ...string[]])
          .optional()
          .describe('inbox (default) or a consolidated category'),
        type: z.enum(MEMORY_TYPES).optional().describe('memory_type; rule and preference are recalled first'),
        priority: z.number().int().min(1).max(5).optional().describe('1–5, default 4'),
        tags: z.array(z.string()).optional(),
        expires: z.string().optional().describe('a date (YYYY-MM-DD) or a condition such as 本工作階段'),
      },
    },
    guarded(
      'remember',
      logger,
      async (args: {
        text: string;
        role?: string;
        category?: string;
        type?: string;
        priority?: number;
        tags?: string[];
        expires?: string;
      }) => {
        const who = ctx.existingRole(args.role);
        const { rememberText } = await import('../../engine/capture/remember.js');
        const { memory, warnings } = await rememberText(config, who.id, {
          text: args.text,
          category: args.category,
          type: args.type,
          priority: args.priority,
          tags: args.tags ?? [],
          expires: args.expires,
          ...projectOf(ctx),
        });
        return textResult(`已記下（角色 ${who.id}，${memory.category}，id ${memory.id}）：${memory.summary}${warningLines(warnings)}`, {
          role: who.id,
          id: memory.id,
          category: memory.category,
          memory_type: memory.memory_type,
          summary: memory.summary,
          path: memory.path,
          warnings,
        });
      },
    ),
  );

  server.registerTool(
    'bonds',
    {
      title: '關係史',
      description: `Read the role's relationship history (BONDS.md), newest first: the user's own words and the role's real feelings at moments that mattered, each with a direction (使用者→角色 / 角色→使用者 / 相互). Use it to keep warmth consistent and continuous. Never use it to demand attention, to count or compare how often the user talks to the role, or to make them feel obliged. \`count\` defaults to ${BONDS_DEFAULT} (the file keeps the newest ${BONDS_KEPT}).`,
      inputSchema: { role: roleArg, count: z.number().int().min(1).max(BONDS_KEPT).optional() },
      annotations: { readOnlyHint: true },
    },
    guarded('bonds', logger, ({ role, count }: { role?: string; count?: number }) => {
      const who = ctx.role(role);
      const bonds = readBonds(config.paths.memoryHome, who.id, count ?? BONDS_DEFAULT);
      const text = bonds.length
        ? `角色 ${who.id} 的關係史（最新在前，${bonds.length} 筆）：\n` +
          bonds
            .map((b) => `- ${b.time ? `${b.time} ` : ''}${b.direction ? `[${BOND_DIRECTION_LABELS[b.direction]}] ` : ''}${b.text}`)
            .join('\n')
        : `角色 ${who.id} 還沒有關係史（BONDS.md）。`;
      return textResult(text, { role: who.id, bonds });
    }),
  );

  const idArg = z.string().min(1).describe('the memory id (from recall)');

  server.registerTool(
    'probe_add',
    {
      title: '記錄一次記憶確認提問',
      description:
        "Record that you asked the user about a fuzzy memory instead of asserting it (可以問，不可以斷言). Ask at most one such question per turn, phrased as a question, e.g. 「你之前是不是說過不喜歡早上開會？」. Then, from the user's answer, call probe_confirm or probe_deny.",
      inputSchema: { id: idArg, question: z.string().optional().describe('the question as you asked it'), role: roleArg },
    },
    guarded('probe_add', logger, async ({ id, question, role }: { id: string; question?: string; role?: string }) => {
      const who = ctx.existingRole(role);
      const { addProbe } = await import('../../store/memory/probes.js');
      const change = await addProbe(config, who.id, id, question);
      return textResult(`已記錄提問（角色 ${who.id}，記憶 ${id}）：等待使用者確認。${warningLines(change.warnings)}`, {
        role: who.id,
        id,
        path: change.path,
        probe: change.probe,
      });
    }),
  );

  server.registerTool(
    'probe_confirm',
    {
      title: '使用者確認了記憶',
      description:
        'The user confirmed a memory you asked about with probe_add: it is marked confirmed. Fails when the memory has no open probe.',
      inputSchema: { id: idArg, role: roleArg },
    },
    guarded('probe_confirm', logger, async ({ id, role }: { id: string; role?: string }) => {
      const who = ctx.existingRole(role);
      const { confirmProbe } = await import('../../store/memory/probes.js');
      const change = confirmProbe(config, who.id, id);
      return textResult(`記憶 ${id} 已確認（角色 ${who.id}）。`, { role: who.id, id, path: change.path, probe: change.probe });
    }),
  );

  server.registerTool(
    'probe_deny',
    {
      title: '使用者否認了記憶',
      description:
        'The user said a memory you asked about with probe_add is wrong: it is flagged and rewritten at the next consolidation as 「原本以為…後來發現…」. Put what is true instead in `note`. Fails when the memory has no open probe.',
      inputSchema: { id: idArg, note: z.string().optional().describe("what is true instead, in the user's words"), role: roleArg },
    },
    guarded('probe_deny', logger, async ({ id, note, role }: { id: string; note?: string; role?: string }) => {
      const who = ctx.existingRole(role);
      const { denyProbe } = await import('../../store/memory/probes.js');
      const change = await denyProbe(config, who.id, id, note);
      return textResult(`記憶 ${id} 已標記為錯誤，下次整理時更正（角色 ${who.id}）。${warningLines(change.warnings)}`, {
        role: who.id,
        id,
        path: change.path,
        probe: change.probe,
      });
    }),
  );
}
