import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { launchHook, launchHookSettled } from '../../hooks/hook-launcher.js';

/**
 * The launcher the assistants run (hooks/hook-launcher.ts): it hands the hook to the client with
 * its arguments, writes the client's code cache after the answer, and turns a client it cannot
 * load into a message and exit 0 — never a stack trace, never a blocked assistant.
 * (That the shipped launcher takes its own cache in the next process: shipped-client.test.ts.)
 */
let root: string | undefined;
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A client bundle as the build writes one (CommonJS, runHook), which records what it was given. */
function setUp(): { client: string; calls: string; memoryHome: string } {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-launcher-'));
  const client = path.join(root, 'dist', 'hook-client.js');
  const calls = path.join(root, 'calls.jsonl');
  fs.mkdirSync(path.dirname(client));
  fs.writeFileSync(
    client,
    `exports.runHook = async (argv) => { require('node:fs').appendFileSync(${JSON.stringify(calls)}, JSON.stringify(argv) + '\\n'); return 0; };\n`,
  );
  const memoryHome = path.join(root, 'memory');
  vi.stubEnv('ROLE_MEMORY_HOME', memoryHome);
  vi.stubEnv('KIOKU_HOOK_DISABLED', '');
  return { client, calls, memoryHome };
}

const cacheFiles = (memoryHome: string) => {
  const dir = path.join(memoryHome, '.kioku', 'cache');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith('hook-client-') && name.endsWith('.v8cache')) : [];
};

describe('the hook launcher', () => {
  it('runs the client with the arguments as given, then writes its code cache in the memory home', async () => {
    const { client, calls, memoryHome } = setUp();
    expect(cacheFiles(memoryHome)).toEqual([]);
    expect(await launchHook(['session-start', '--assistant', 'codex'], client)).toBe(0);
    expect(fs.readFileSync(calls, 'utf8')).toBe('["session-start","--assistant","codex"]\n');
    expect(cacheFiles(memoryHome)).toHaveLength(1);
    const mode = fs.statSync(path.join(memoryHome, '.kioku', 'cache')).mode & 0o777;
    expect(mode).toBe(0o700);
  });

  it('says which file is missing, and exits 0, when the client cannot be loaded', async () => {
    const { client, memoryHome } = setUp();
    fs.rmSync(client);
    const written: string[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, text: string) => {
      if (fd === 2) written.push(String(text));
      return String(text).length;
    }) as typeof fs.writeSync);
    expect(await launchHook(['stop'], client)).toBe(0);
    expect(written.join('')).toContain(client);
    expect(written.join('')).toContain('reinstall Kioku');
    expect(written.join('')).not.toMatch(/\n\s+at /); // no stack trace
    expect(cacheFiles(memoryHome)).toEqual([]);
  });

  it('says the process may end at once only when the client says it left nothing running', async () => {
    const { client } = setUp();
    // A client that does not say (another build's, a test's): the process ends the usual way.
    expect(await launchHookSettled(['stop'], client)).toEqual({ code: 0, settled: false });
    for (const settled of [true, false]) {
      fs.writeFileSync(client, `exports.runHook = async () => 0;\nexports.settledAfterAnswer = () => ${settled};\n`);
      expect(await launchHookSettled(['stop'], client)).toEqual({ code: 0, settled });
    }
  });

  it('loads nothing inside Kioku’s own condenser runs (KIOKU_HOOK_DISABLED=1)', async () => {
    const { client, calls, memoryHome } = setUp();
    vi.stubEnv('KIOKU_HOOK_DISABLED', '1');
    expect(await launchHook(['stop'], client)).toBe(0);
    expect(fs.existsSync(calls)).toBe(false);
    expect(cacheFiles(memoryHome)).toEqual([]);
  });
});
