import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LEGACY_HELPER, SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { claudeProjectFolderName, resolveMcpRole, type McpAssistant } from './mcp-role.js';

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function setup(env: NodeJS.ProcessEnv = {}) {
  const home = makeTempHome(env);
  homes.push(home);
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  writeText(home.roleHome, 'HELPER01.md', LEGACY_HELPER);
  const project = fs.mkdtempSync(path.join(home.root, 'proj-'));
  const context = (assistant: McpAssistant | undefined, extra: NodeJS.ProcessEnv = {}) => ({
    config: home.config(extra),
    assistant,
    cwd: project,
  });
  return { home, project, context };
}

/** A Claude Code transcript for the project, written `ageMs` ago, whose session switched to `role`. */
function claudeSession(home: TempHome, project: string, id: string, role: string | undefined, ageMs: number) {
  const file = writeText(path.join(home.root, '.claude', 'projects', claudeProjectFolderName(project)), `${id}.jsonl`, '{}\n');
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
  if (role) writeText(home.roleHome, `.sessions/${id}.role`, `${role}\n`);
}

describe('resolveMcpRole', () => {
  it('an explicit argument wins: an ID, a display name or an alias', () => {
    const { context } = setup({ ROLE_NAME: 'HELPER01' });
    expect(resolveMcpRole(context('claude'), 'ENGINEER01')).toEqual({ id: 'ENGINEER01', source: 'argument' });
    expect(resolveMcpRole(context('claude'), '小豹')).toEqual({ id: 'ENGINEER01', source: 'argument' });
    expect(resolveMcpRole(context('claude'), 'leopard')).toEqual({ id: 'ENGINEER01', source: 'argument' });
    expect(() => resolveMcpRole(context('claude'), 'NOPE99')).toThrow(/no role NOPE99/);
  });

  it('an ID with only a memory folder (an imported role) is accepted', () => {
    const { home, context } = setup();
    fs.mkdirSync(path.join(home.memoryHome, 'IMPORTED01', 'inbox'), { recursive: true });
    expect(resolveMcpRole(context(undefined), 'IMPORTED01')).toEqual({ id: 'IMPORTED01', source: 'argument' });
  });

  it('for Claude Code: the role switched to by the session whose transcript was written last', () => {
    const { home, project, context } = setup();
    writeText(home.roleHome, '.active', 'ENGINEER01\n');
    claudeSession(home, project, 'older-session', 'ENGINEER01', 60_000);
    claudeSession(home, project, 'newest-session', 'HELPER01', 0);
    expect(resolveMcpRole(context('claude'))).toEqual({ id: 'HELPER01', source: 'session' });
    // Other clients keep no such index: the session step is skipped.
    expect(resolveMcpRole(context('codex'))).toEqual({ id: 'ENGINEER01', source: 'active' });
    expect(resolveMcpRole(context(undefined))).toEqual({ id: 'ENGINEER01', source: 'active' });
  });

  it('a newest session that never switched, or switched to a role since deleted, falls through to ROLE_NAME and .active', () => {
    const { home, project, context } = setup();
    writeText(home.roleHome, '.active', 'ENGINEER01\n');
    claudeSession(home, project, 'old', 'HELPER01', 60_000);
    claudeSession(home, project, 'new', undefined, 0);
    expect(resolveMcpRole(context('claude'))).toEqual({ id: 'ENGINEER01', source: 'active' });
    expect(resolveMcpRole(context('claude', { ROLE_NAME: 'HELPER01' }))).toEqual({ id: 'HELPER01', source: 'env' });
    claudeSession(home, project, 'newer', 'GONE01', -1_000);
    expect(resolveMcpRole(context('claude'))).toEqual({ id: 'ENGINEER01', source: 'active' });
  });

  it('no role anywhere is bad usage naming both ways out', () => {
    const { context } = setup();
    expect(() => resolveMcpRole(context('claude'))).toThrow(
      expect.objectContaining({ code: 'BAD_USAGE', hint: expect.stringMatching(/persona_list|kioku role use/) }),
    );
  });
});
