import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isKiokuError } from '../../../../common/errors.js';
import type { RoleDefinition } from '../../store/roles/role-definition.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { listRoleSummaries } from '../../store/roles/role-summary.js';
import { ROLE_SOURCE_LABELS } from './mcp-role.js';
import { guarded, textResult, type McpToolContext } from './mcp-tool-kit.js';

/**
 * DSH-6's persona tool, read side (DSH-6: list, current, show). Switching, creating and deleting roles stay with the user (`kioku role …` and the
 * role skill), because they take effect in new sessions and the role skill asks for a confirmation table
 * before any definition is overwritten.
 */
function definitionText(role: RoleDefinition): string {
  const lines = [`# ${role.emoji ? `${role.emoji} ` : ''}${role.name}（${role.id}）`];
  if (role.aliases.length) lines.push(`別名：${role.aliases.join('、')}`);
  if (role.preamble.trim()) lines.push('', role.preamble.trim());
  const section = (heading: string, body: string) => {
    if (body.trim()) lines.push('', `## ${heading}`, body.trim());
  };
  section('出處（source）', role.source);
  section('關係（relationship）', role.relationship);
  section('簽名（signature）', role.signature);
  section('本質（nature）', role.nature);
  section('氛圍（vibe）', role.vibe);
  for (const extra of role.extraSections) section(extra.heading || '（其他）', extra.body);
  return lines.join('\n');
}

function definitionData(role: RoleDefinition) {
  const { id, name, emoji, aliases, nature, vibe, format, source, relationship, signature } = role;
  return { id, name, emoji, aliases, nature, vibe, format, source, relationship, signature, files: role.files };
}

export function registerPersonaTools(server: McpServer, ctx: McpToolContext): void {
  const { logger, config } = ctx;

  server.registerTool(
    'persona_list',
    {
      title: '列出角色',
      description:
        "List every role (persona) the user has: ID, display name, emoji, the first line of its nature, how many memories it has, and which one is active. Use it to find a role's ID before passing `role` to another tool. Switching roles is done by the user (`kioku role use`) or by calling a role by name in the conversation.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    guarded('persona_list', logger, () => {
      const { roles, current, currentProblem } = listRoleSummaries(config);
      let session: string | undefined;
      try {
        session = ctx.role().id;
      } catch (error) {
        if (!isKiokuError(error)) throw error;
      }
      const text = roles.length
        ? roles
            .map((r) => {
              const marks = [r.active ? '啟用中' : '', r.id === session && !r.active ? '本工作階段' : ''].filter(Boolean);
              const head = `${r.id === session ? '▶' : '-'} ${r.id}  ${r.emoji ? `${r.emoji} ` : ''}${r.name || '（無法讀取）'}${marks.length ? `（${marks.join('、')}）` : ''}`;
              const detail = r.problem ? `⚠ ${r.problem}` : `${r.natureFirstLine} · 記憶 ${r.memoryCount} 筆`;
              return `${head}\n  ${detail}`;
            })
            .join('\n')
        : `還沒有任何角色（${config.paths.roleHome}）。使用者可以用 \`kioku role new\` 或角色技能建立。`;
      const problem = currentProblem ? `\n⚠ ${currentProblem}` : '';
      return textResult(`${text}${problem}`, {
        roles: roles.map(({ id, name, emoji, active, memoryCount, natureFirstLine, format, problem: p }) => ({
          id,
          name,
          emoji,
          active,
          memoryCount,
          natureFirstLine,
          format,
          problem: p ?? null,
        })),
        activeRole: current?.id ?? null,
        sessionRole: session ?? null,
      });
    }),
  );

  server.registerTool(
    'persona_current',
    {
      title: '目前的角色',
      description:
        'Which role this session is: the role switched to in this session (when the client can be told), else ROLE_NAME, else the active role. Returns its ID, name, emoji and where that answer came from; call persona_show for the full definition.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    guarded('persona_current', logger, () => {
      const who = ctx.role();
      let role: RoleDefinition | undefined;
      let problem: string | undefined;
      try {
        role = readRoleDefinition(config.paths.roleHome, who.id);
      } catch (error) {
        if (!isKiokuError(error)) throw error;
        problem = error.message;
      }
      const name = role ? `${role.emoji ? `${role.emoji} ` : ''}${role.name}` : '（定義無法讀取）';
      const text = `目前的角色：${name}（${who.id}），來源：${ROLE_SOURCE_LABELS[who.source]}。${problem ? `\n⚠ ${problem}` : ''}`;
      return textResult(text, {
        id: who.id,
        name: role?.name ?? null,
        emoji: role?.emoji ?? null,
        source: who.source,
        problem: problem ?? null,
      });
    }),
  );

  server.registerTool(
    'persona_show',
    {
      title: '角色定義',
      description:
        "Show one role's full definition: name, emoji, aliases, source, relationship, signature, nature (本質), vibe (氛圍) and any other sections. `role` is an ID, display name or alias; default: this session's role.",
      inputSchema: { role: z.string().optional().describe('role ID, display name or alias (default: the current role)') },
      annotations: { readOnlyHint: true },
    },
    guarded('persona_show', logger, ({ role }: { role?: string }) => {
      const who = ctx.role(role);
      const definition = readRoleDefinition(config.paths.roleHome, who.id);
      return textResult(definitionText(definition), { ...definitionData(definition), resolvedFrom: who.source });
    }),
  );
}
