import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CapturedTurnRecord, TurnInput } from '../../main/core/engine/capture/capture-types.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import type { StoredMemory } from '../../common/memory.js';

const FAKE_CLI_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'fake-cli');

/**
 * A bin folder holding only the named fake CLIs (copied, made executable), to put alone on PATH:
 * no real CLI on the machine can then be picked by mistake.
 */
export function makeFakeBin(root: string, names: readonly string[]): string {
  const bin = fs.mkdtempSync(path.join(root, 'bin-'));
  fs.copyFileSync(path.join(FAKE_CLI_DIR, 'fake-cli.mjs'), path.join(bin, 'fake-cli.mjs'));
  for (const name of names) {
    fs.copyFileSync(path.join(FAKE_CLI_DIR, name), path.join(bin, name));
    fs.chmodSync(path.join(bin, name), 0o755);
  }
  return bin;
}

/** Environment for a run with the fakes: their folder is the whole PATH; the node binary is named apart. */
export function fakeCliEnv(bin: string, log: string, mode = 'valid'): NodeJS.ProcessEnv {
  return { PATH: bin, FAKE_CLI_NODE: process.execPath, FAKE_CLI_LOG: log, FAKE_CLI_MODE: mode };
}

export interface FakeCall {
  name: string;
  pid: number;
  argv: string[];
  env: Record<string, string | null>;
  cwd: string;
  stdin: string;
}

export function readCalls(log: string): FakeCall[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FakeCall);
}

/** Whether a process is still alive (a fake the product should have killed). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const ROLE = 'TESTER01';

export function turnInput(userText: string, assistantText = '', extra: Partial<TurnInput> = {}): TurnInput {
  return {
    roleId: ROLE,
    roleName: '測試員',
    userText,
    assistantText,
    consent: 'accepted',
    now: new Date('2026-12-01T10:00:00+08:00'),
    trigger: 'stop',
    ...extra,
  };
}

let counter = 0;
export function turnRecord(userText: string, assistantText: string, extra: Partial<CapturedTurnRecord> = {}): CapturedTurnRecord {
  counter++;
  return {
    eventId: `evt-${counter}-${Math.random().toString(16).slice(2)}`,
    roleId: ROLE,
    assistant: 'claude',
    sessionId: 'session-1',
    trigger: 'stop',
    userText,
    assistantText,
    receivedAt: '2026-12-01T10:00:00+08:00',
    ...extra,
  };
}

export function inboxOf(memoryHome: string, role = ROLE): StoredMemory[] {
  return loadRoleMemories(memoryHome, role).memories.filter((m) => m.category === 'inbox');
}
