import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode, waitFor, type ChildRun } from '../ipc/daemon-kit.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** `kioku daemon --web` as a user runs it: the real command in a real process. */
let home: TempHome | undefined;
let run: ChildRun | undefined;
afterEach(async () => {
  if (run?.isRunning()) {
    run.child.kill('SIGKILL');
    await run.exited;
  }
  run = undefined;
  home?.cleanup();
});

const kioku = (args: string[]) => runNode('test/ipc/fixtures/kioku-cli.ts', args, { ...home!.env, KIOKU_NO_SCHEDULE: '1' });
const URL_LINE = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]{43})\n$/;

describe('kioku daemon --web', () => {
  it('prints one URL line on stdout, serves the API with its token, and stops cleanly on SIGTERM', async () => {
    home = makeTempHome();
    run = kioku(['daemon', '--web', '--port', '0']);
    const stdout = await waitFor(() => run!.output().stdout.includes('\n') && run!.output().stdout, 'the URL on stdout');
    const match = URL_LINE.exec(stdout);
    expect(match, stdout).not.toBeNull();
    const [, port, token] = match!;
    const base = `http://127.0.0.1:${port}`;

    const state = await fetch(`${base}/api/state`, { headers: { 'x-kioku-token': token! } });
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({ ok: true, value: { roles: [], activeRole: null, daemon: { running: true } } });
    expect((await fetch(`${base}/api/state`)).status).toBe(401);

    const socketPath = home.config().paths.socketPath;
    expect(fs.existsSync(socketPath)).toBe(true);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output().stdout).toBe(stdout); // nothing else was printed on stdout
    expect(fs.existsSync(socketPath)).toBe(false);
    await expect(fetch(`${base}/api/state`, { headers: { 'x-kioku-token': token! } })).rejects.toThrow();
  });

  it('refuses a port that is not a number from 0 to 65535 (exit 2)', async () => {
    home = makeTempHome();
    for (const port of ['abc', '70000']) {
      run = kioku(['daemon', '--web', '--port', port]);
      expect((await run.exited).code, port).toBe(2);
      expect(run.output().stderr).toContain('--port');
    }
  });

  it('says which port is taken and what to do (exit 1), leaving no socket behind', async () => {
    home = makeTempHome();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      run = kioku(['daemon', '--web', '--port', String(taken)]);
      expect((await run.exited).code).toBe(1);
      expect(run.output().stderr).toContain(`port ${taken} on 127.0.0.1 is already in use`);
      expect(run.output().stdout).toBe('');
      expect(fs.existsSync(home.config().paths.socketPath)).toBe(false);
    } finally {
      blocker.close();
    }
  });
});
