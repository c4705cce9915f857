import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { defaultAgentDir, planAgentFile, writeAgentFile } from './role-agent.js';

/** ROLE-11: the sub-agent file Claude Code reads from ~/.claude/agents/. */
const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

const ENTRY = '/opt/kioku/bin/kioku.js';

function homeWithEngineer(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-08-10T12:00:00+08:00' });
  homes.push(home);
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  return home;
}

/** What Claude Code requires of an agent file (ASSISTANTS.md): strict YAML frontmatter with name and description. */
function parseAgentFile(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  expect(match, 'the file starts with a --- frontmatter block').not.toBeNull();
  const data = yaml.load(match![1]!, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>;
  expect(typeof data.name).toBe('string');
  expect(data.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  expect(typeof data.description).toBe('string');
  expect(String(data.description)).not.toMatch(/\n/);
  expect(Object.keys(data).every((key) => ['name', 'description', 'tools'].includes(key))).toBe(true);
  return { data, body: text.slice(match![0].length) };
}

describe('kioku role agent (ROLE-11)', () => {
  it('writes a file Claude Code accepts, with the persona, the memory commands and the boundaries', () => {
    const home = homeWithEngineer();
    const config = home.config();
    const plan = planAgentFile(config, 'ENGINEER01', undefined, { kiokuEntry: ENTRY });
    expect(plan.file).toBe(path.join(home.root, '.claude', 'agents', 'engineer01.md'));
    expect(path.dirname(plan.file)).toBe(defaultAgentDir(config));
    expect(plan.action).toBe('create');
    writeAgentFile(plan);
    const text = fs.readFileSync(plan.file, 'utf8');
    const { data, body } = parseAgentFile(text);
    expect(data.name).toBe('engineer01');
    expect(data.description).toMatch(/^小豹（ENGINEER01）：冷靜可靠的資深工程師/);
    expect(data.tools).toBeUndefined(); // inherits every tool of the session that sends it
    expect(body).toContain('冷靜可靠的資深工程師，重證據、不打包票。');
    expect(body).toContain('簡潔直白、偶爾吐槽。');
    expect(body).toContain('角色 ID：ENGINEER01');
    // Loads its own memory before work and writes back after, without taking the role lock.
    expect(body).toMatch(/ROLE_HOME=\S+ ROLE_MEMORY_HOME=\S+ ROLE_SKIP_INSTANCE_LOCK=1 kioku memory recall --role ENGINEER01 --query/);
    expect(body).toMatch(/ROLE_SKIP_INSTANCE_LOCK=1 kioku memory remember --role ENGINEER01 .*誰派我做什麼、結果如何/);
    expect(body).toContain(`node ${ENTRY}`);
    expect(body).toMatch(/不可再往下派工/);
    expect(body).toMatch(/照實回報壞消息/);
    expect(body).toMatch(/程式碼、指令與錯誤訊息照實輸出/);
    expect(body).toMatch(/不讀也不改其他角色的記憶檔/); // PRIV-4
    expect(parseFrontmatter(text).lenient).toBe(false);
  });

  it('round-trips: exporting again is "unchanged" and leaves the file byte-identical', () => {
    const home = homeWithEngineer();
    const config = home.config();
    const dir = path.join(home.root, 'project', '.claude', 'agents');
    writeAgentFile(planAgentFile(config, 'ENGINEER01', dir, { kiokuEntry: ENTRY }));
    const file = path.join(dir, 'engineer01.md');
    const before = fs.readFileSync(file);
    const again = planAgentFile(config, 'ENGINEER01', dir, { kiokuEntry: ENTRY });
    expect(again.action).toBe('unchanged');
    writeAgentFile(again);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('replacing a file with other text needs the token; nothing is written without it', () => {
    const home = homeWithEngineer();
    const config = home.config();
    const dir = path.join(home.root, 'agents');
    writeAgentFile(planAgentFile(config, 'ENGINEER01', dir, { kiokuEntry: ENTRY }));
    const file = path.join(dir, 'engineer01.md');
    const soul = path.join(home.roleHome, 'ENGINEER01.soul.md');
    fs.writeFileSync(soul, fs.readFileSync(soul, 'utf8').replace('簡潔直白、偶爾吐槽。', '溫和耐心。'));
    const before = fs.readFileSync(file, 'utf8');
    const plan = planAgentFile(config, 'ENGINEER01', dir, { kiokuEntry: ENTRY });
    expect(plan.action).toBe('replace');
    expect(plan.token).toMatch(/^[0-9a-f]{10}$/);
    expect(plan.removed).toContain('簡潔直白、偶爾吐槽。');
    expect(plan.added).toContain('溫和耐心。');
    expect(() => writeAgentFile(plan)).toThrow(/exists with other text; nothing was written/);
    expect(() => writeAgentFile(plan, 'deadbeef00')).toThrow(/nothing was written/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    writeAgentFile(plan, plan.token!.toUpperCase());
    expect(fs.readFileSync(file, 'utf8')).toContain('溫和耐心。');
  });

  it('an English role gets English text; --tools sets the tools line; quotes in names stay valid YAML', () => {
    const home = homeWithEngineer();
    writeText(home.roleHome, 'WRITER01.identity.md', '---\nid: WRITER01\nname: "Ada: the \\"Writer\\""\nemoji: ✒️\n---\n\n# Ada\n');
    writeText(
      home.roleHome,
      'WRITER01.soul.md',
      '---\nid: WRITER01\n---\n\n## Nature\n\nA careful technical writer: short sentences, # no fluff.\n\n## Vibe\n\nDry humour.\n',
    );
    const plan = planAgentFile(home.config(), 'WRITER01', path.join(home.root, 'a'), {
      kiokuEntry: ENTRY,
      tools: ['Read', 'Grep', 'Bash'],
    });
    const { data, body } = parseAgentFile(plan.text);
    expect(data).toMatchObject({ name: 'writer01', tools: 'Read, Grep, Bash' });
    expect(data.description).toBe(
      'Ada: the "Writer" (WRITER01): A careful technical writer: short sentences, # no fluff. Send this role when Ada: the "Writer"\'s skills are needed or someone asks Ada: the "Writer" for help.',
    );
    expect(body).toMatch(/## Before you start: load your own memory/);
    expect(body).toMatch(/Do not delegate further/);
  });

  it('an unknown role or a file where the folder should be is refused before anything is written', () => {
    const home = homeWithEngineer();
    expect(() => planAgentFile(home.config(), 'NOBODY01', path.join(home.root, 'a'))).toThrow(/no role NOBODY01/);
    const notDir = path.join(home.root, 'file');
    fs.writeFileSync(notDir, 'x');
    expect(() => planAgentFile(home.config(), 'ENGINEER01', notDir)).toThrow(/is a file, not a folder/);
    expect(() => planAgentFile(home.config(), '../x', path.join(home.root, 'a'))).toThrow(/role ID/);
  });
});
