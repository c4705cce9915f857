import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../main/cli/kioku.js';

/**
 * skills/role/SKILL.md (Claude Code and Codex skill): its frontmatter is what both assistants
 * need (name, description), and every `kioku …` it tells the assistant to run is a real command
 * path of main/cli/kioku.ts with options that command has — a renamed command must break this.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKILL = path.join(root, 'skills', 'role', 'SKILL.md');
const text = fs.readFileSync(SKILL, 'utf8');

const noContext = () => {
  throw new Error('no command runs in this test');
};
/** One program per group mentioned: loading only that group keeps this test quick (kioku.ts loads groups lazily too). */
const programs = new Map<string, Command>();
let groups: string[] = [];
beforeAll(async () => {
  groups = (await buildProgram(noContext, '-none-')).commands.map((command) => command.name());
  const mentioned = new Set(
    kiokuSnippets(text)
      .map((snippet) => tokens(snippet)[0]!)
      .filter((group) => groups.includes(group)),
  );
  for (const group of [...mentioned, 'memory', 'role']) programs.set(group, await buildProgram(noContext, group));
});

/** Every inline code span that runs kioku, e.g. `kioku role new --name "<name>" --json`. */
function kiokuSnippets(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!.trim()).filter((span) => /^(?:\S+=\S+\s+)*kioku\s+\S/.test(span));
}

function tokens(snippet: string): string[] {
  const afterKioku = snippet.replace(/^(?:\S+=\S+\s+)*kioku\s+/, '');
  return [...afterKioku.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((match) => match[0]);
}

const hasAction = (command: Command) => Boolean((command as unknown as { _actionHandler?: unknown })._actionHandler);

/** The command a snippet names and the options it passes; throws when either is not in the CLI. */
function resolve(snippet: string): Command {
  const args = tokens(snippet);
  const program = programs.get(args[0]!) ?? programs.get('role')!;
  let command = program;
  let i = 0;
  for (; i < args.length; i++) {
    const sub = command.commands.find((candidate) => candidate.name() === args[i]);
    if (!sub) break;
    command = sub;
  }
  if (command === program) throw new Error(`"${snippet}": "${args[0]}" is not a kioku command`);
  if (!hasAction(command))
    throw new Error(
      `"${snippet}": "${command.name()}" needs a subcommand (${command.commands.map((c) => c.name()).join(', ')}), got "${args[i] ?? ''}"`,
    );
  const longs = new Set(command.options.map((option) => option.long));
  for (const arg of args.slice(i)) {
    if (!arg.startsWith('--')) continue;
    const flag = arg.split('=')[0]!;
    if (!longs.has(flag)) throw new Error(`"${snippet}": ${command.name()} has no option ${flag}`);
  }
  return command;
}

describe('skills/role/SKILL.md', () => {
  it('has the frontmatter Claude Code and Codex read: name and a description of when to use it', () => {
    const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(match).not.toBeNull();
    const data = yaml.load(match![1]!, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>;
    expect(data.name).toBe('role');
    expect(typeof data.description).toBe('string');
    expect(String(data.description).length).toBeGreaterThan(40);
    expect(String(data.description).length).toBeLessThanOrEqual(1024);
    expect(Object.keys(data).sort()).toEqual(['description', 'name']);
  });

  it('every kioku command it mentions exists, with options the command has', () => {
    const snippets = kiokuSnippets(text);
    expect(snippets.length).toBeGreaterThan(20);
    const problems: string[] = [];
    const used = new Set<string>();
    for (const snippet of snippets) {
      try {
        const command = resolve(snippet);
        const names: string[] = [];
        for (let c: Command | null = command; c && c.parent; c = c.parent) names.unshift(c.name());
        used.add(names.join(' '));
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    expect(problems).toEqual([]);
    // The role skill's modes, each driven through its kioku command.
    for (const path of [
      'role new',
      'role use',
      'role list',
      'role export',
      'role import',
      'role migrate',
      'role agent',
      'role unlock',
      'sleep',
      'nap',
      'status',
      'diagnose',
      'memory forget',
      'brief',
      'install-cron',
      'remove-cron',
      'import',
    ]) {
      expect(used, path).toContain(path);
    }
  });

  it('the checker itself refuses a command or an option the CLI does not have', () => {
    expect(() => resolve('kioku role create --name x')).toThrow(/needs a subcommand/);
    expect(() => resolve('kioku role new --yes')).toThrow(/has no option --yes/);
    expect(() => resolve('kioku forget-preview')).toThrow(/is not a kioku command/);
    expect(resolve('ROLE_SKIP_INSTANCE_LOCK=1 kioku memory recall --role X01 --query "q"').name()).toBe('recall');
  });

  it('the --new interview never guesses, asks for the source, and waits for the table to be confirmed', () => {
    expect(text).toMatch(/不得代填、不得硬猜/);
    expect(text).toMatch(/先問\*\*出自哪部作品／來源\*\*/);
    expect(text).toMatch(/\| 欄位 \| 舊值 \| 新值 \| 變更 \|/);
    expect(text).toMatch(/\*\*停下來等使用者回覆\*\*/);
    expect(text).toMatch(/--confirm <token>/);
  });
});
