import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KiokuError } from '../../../../common/errors.js';
import { readProjectMemory } from '../../engine/context/context-files.js';
import { readProjectMemoryFile, updateProjectMemory } from './project-memory.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-project-'));
  dirs.push(dir);
  return dir;
}

async function refusal(promise: Promise<unknown>): Promise<KiokuError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KiokuError);
  return error as KiokuError;
}

describe('project MEMORY.md (DSH-2)', () => {
  it('reading a missing file says so and never creates it', () => {
    const dir = project();
    expect(readProjectMemoryFile(dir)).toMatchObject({
      project: dir,
      exists: false,
      text: '',
      usage: { chars: 0, maxChars: 8000, over: false },
    });
    expect(fs.existsSync(path.join(dir, 'MEMORY.md'))).toBe(false);
  });

  it('update creates it (the explicit ask), and the SessionStart reader sees the same text', async () => {
    const dir = project();
    const result = await updateProjectMemory(dir, '# 專案約定\n\n- 用 pnpm，不用 npm\n');
    expect(result).toMatchObject({ created: true, path: path.join(dir, 'MEMORY.md'), usage: { chars: 23, over: false } });
    expect(readProjectMemory(dir)?.text).toBe('# 專案約定\n\n- 用 pnpm，不用 npm\n');
    expect((await updateProjectMemory(dir, '改過的約定')).created).toBe(false);
  });

  it('accepts exactly 8000 characters and refuses 8001 with the file unchanged', async () => {
    const dir = project();
    const file = path.join(dir, 'MEMORY.md');
    await updateProjectMemory(dir, `${'字'.repeat(8000)}\n`);
    expect(readProjectMemoryFile(dir).usage).toEqual({ chars: 8000, maxChars: 8000, over: false });
    const before = fs.readFileSync(file);
    const error = await refusal(updateProjectMemory(dir, '字'.repeat(8001)));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toMatch(/8001 characters \(limit 8000\)/);
    expect(error.hint).toMatch(/journal/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses 8001 characters without creating a missing file', async () => {
    const dir = project();
    await refusal(updateProjectMemory(dir, 'z'.repeat(8001)));
    expect(fs.existsSync(path.join(dir, 'MEMORY.md'))).toBe(false);
  });

  it('refuses a project folder that does not exist, and an empty text', async () => {
    const dir = project();
    expect((await refusal(updateProjectMemory(path.join(dir, 'nope'), 'x'))).code).toBe('NOT_FOUND');
    expect(() => readProjectMemoryFile(path.join(dir, 'nope'))).toThrow(/does not exist/);
    expect((await refusal(updateProjectMemory(dir, '\n\n'))).code).toBe('BAD_USAGE');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
