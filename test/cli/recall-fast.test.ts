import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCliContext } from '../../main/cli/cli-context.js';
import { runRecall } from '../../main/cli/commands/recall-actions.js';
import { takeDaemonMiss } from '../../main/cli/commands/recall-daemon.js';
import { recallFast } from '../../main/cli/recall-fast.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { ROLE, writeMemory } from './recall-test-fixtures.js';

/**
 * The fast path of `kioku memory recall` (recall-fast.ts) answers only a plain command line the
 * daemon answers; everything else goes to the full command ('full'), which then behaves exactly as
 * before — and a daemon the fast path already asked in vain is not asked (and waited for) again.
 * The daemon's answers themselves are compared byte for byte in recall-daemon-parity.test.ts.
 */
let home: TempHome | undefined;
let server: net.Server | undefined;
afterEach(async () => {
  takeDaemonMiss();
  if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
  home?.cleanup();
  home = undefined;
});

function setUp(env: NodeJS.ProcessEnv = {}): TempHome {
  home = makeTempHome({ KIOKU_NOW: '2026-03-10T12:00:00', ROLE_NAME: ROLE, ...env });
  writeMemory(home.memoryHome, 'daily', { id: 'haircut', summary: '近況', body: '使用者昨天去剪了頭髮' });
  return home;
}

describe('kioku memory recall, fast path', () => {
  const fullCases: Record<string, string[]> = {
    help: ['--query', '頭髮', '--help'],
    'an option it does not know': ['--query', '頭髮', '--verbose'],
    'a repeated option': ['--query', '頭髮', '--query', '咖啡'],
    'no query': ['--json'],
    'a value that looks like an option': ['--query', '--json'],
    'a limit out of range (the full command says so)': ['--query', '頭髮', '--limit', '0'],
    'a role ID that is not one': ['--query', '頭髮', '--role', '../x'],
  };
  for (const [kind, args] of Object.entries(fullCases)) {
    it(`leaves ${kind} to the full command`, async () => {
      const { env } = setUp();
      expect(await recallFast(args, env)).toBe('full');
      expect(takeDaemonMiss()).toBeUndefined();
    });
  }

  it('recalls from the index itself when no daemon runs, without the full command', async () => {
    const { env } = setUp();
    // The fast path writes its answer straight to fd 1 (fd-output.ts), not through process.stdout.
    const out: string[] = [];
    const realWriteSync = fs.writeSync;
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: string | Buffer, ...rest: unknown[]) => {
      if (fd !== 1) return (realWriteSync as (...args: unknown[]) => number)(fd, data, ...rest);
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data); // bytes written, as fs.writeSync counts
      out.push(bytes.toString('utf8'));
      return bytes.length;
    }) as typeof fs.writeSync);
    try {
      expect(await recallFast(['--query', '頭髮', '--limit=3', '--json'], env)).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    expect(JSON.parse(out.join(''))).toMatchObject([{ id: 'haircut', hits: 1 }]);
    expect(takeDaemonMiss()).toBeUndefined();
  });

  it('leaves KIOKU_RECALL_DIRECT=1 and a settings warning to the full command', async () => {
    expect(await recallFast(['--query', '頭髮'], setUp({ KIOKU_RECALL_DIRECT: '1' }).env)).toBe('full');
    home!.cleanup();
    const { env } = setUp({ ROLE_LOAD_LIMIT: 'lots' });
    expect(home!.config(env).problems.length).toBeGreaterThan(0);
    expect(await recallFast(['--query', '頭髮'], env)).toBe('full');
  });

  it('hands a daemon that did not answer to the full command, which recalls from the index without asking it again', async () => {
    const { env } = setUp();
    const { paths } = home!.config();
    fs.mkdirSync(path.dirname(paths.tokenFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(paths.tokenFile, 'ab'.repeat(32), { mode: 0o600 }); // as the app writes one
    fs.mkdirSync(path.dirname(paths.socketPath), { recursive: true, mode: 0o700 });
    let connections = 0;
    server = net.createServer((socket) => {
      connections++;
      socket.destroy(); // accepted, never answered
    });
    await new Promise<void>((resolve) => server!.listen(paths.socketPath, () => resolve()));

    expect(await recallFast(['--query', '頭髮'], env)).toBe('full');
    expect(connections).toBe(1);

    const out: string[] = [];
    const ctx = createCliContext(env, { stdout: (text) => void out.push(text), stderr: () => undefined });
    await runRecall(ctx, { query: '頭髮' });
    expect(connections).toBe(1);
    expect(out.join('')).toContain('近況');
    const log = fs.readFileSync(path.join(paths.logsDir, 'kioku.log'), 'utf8');
    expect(log.match(/the daemon did not answer/g)).toHaveLength(1);
    expect(takeDaemonMiss()).toBeUndefined();
  });
});
