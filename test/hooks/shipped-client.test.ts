import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../common/hook-wire.js';
import { guardChild } from '../helpers/child-guard.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { runKioku } from '../helpers/run-cli.js';

// The other hook tests bundle their own client with packages left external; this one runs the
// bundle `npm run build` ships (pretest builds it), so a packaging mistake cannot hide: bundled
// CommonJS packages once broke the fallback while every hook still exited 0 with no answer.
const shipped = path.resolve('dist/hooks/kioku-hook.js');
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

/** A home in Taipei with one role, 小記, made by the CLI. */
function homeWithRole(): TempHome {
  const made = makeTempHome({ KIOKU_NOW: '2026-11-30T14:00:00+08:00', TZ: 'Asia/Taipei' });
  const args = ['role', 'new', '--prefix', 'SHIPPED', '--name', '小記', '--emoji', '✨', '--nature', '細心', '--vibe', '溫和'];
  expect(runKioku(args, made.env).code).toBe(0);
  return made;
}

/** The routes a bundle's code cache was made on (code-cached-require.ts: 'KCC1', a u16 length, the names). */
function cacheRoutes(cacheDir: string, prefix: string): string[] {
  const files = fs.readdirSync(cacheDir).filter((name) => name.startsWith(prefix) && name.endsWith('.v8cache'));
  expect(files).toHaveLength(1);
  const bytes = fs.readFileSync(path.join(cacheDir, files[0]!));
  expect(bytes.subarray(0, 4).toString()).toBe('KCC1');
  return bytes.toString('utf8', 6, 6 + bytes.readUInt16LE(4)).split('\n');
}

/** stderr without what `node --trace-exit` prints when process.exit is called. */
const withoutExitTrace = (stderr: string) =>
  stderr.replace(/\(node:\d+\) WARNING: Exited the environment with code \d+\n(?:[ \t]+at .*\n?)*\n*/g, '');

describe('the shipped hook client (dist/hooks/kioku-hook.js)', () => {
  it('answers SessionStart from the files when no daemon runs', () => {
    home = homeWithRole();
    const payload = {
      session_id: 'shipped-1',
      transcript_path: path.join(home.root, 't.jsonl'),
      cwd: home.root,
      hook_event_name: 'SessionStart',
      source: 'startup',
    };
    expect(fs.existsSync(shipped)).toBe(true);
    const hook = () =>
      spawnSync(process.execPath, [shipped, 'session-start', '--assistant', 'claude'], {
        env: { ...home!.env, KIOKU_TRACE: path.join(home!.root, 'trace.jsonl') },
        input: JSON.stringify(payload),
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      });
    const run = hook();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('小記');
    // Issue 17: the fallback bundle's code cache is written by the first hook and taken by the next,
    // which answers the same.
    const cacheDir = path.join(home.config().paths.stateDir, 'cache');
    expect(fs.readdirSync(cacheDir).filter((name) => name.startsWith('hook-fallback-') && name.endsWith('.v8cache'))).toHaveLength(1);
    const again = hook();
    expect(again.stdout).toBe(run.stdout);
    const marks = fs
      .readFileSync(path.join(home.root, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => Object.keys((JSON.parse(line) as { marks: Record<string, number> }).marks));
    expect(marks[0]).toContain('fallback-compiled');
    expect(marks[1]).toContain('fallback-loaded');
    // The client itself, loaded by the launcher (hook-launcher.ts), is cached the same way.
    expect(marks[0]).toContain('client-compiled');
    expect(marks[1]).toContain('client-cached');
    expect(fs.readdirSync(cacheDir).filter((name) => name.startsWith('hook-client-') && name.endsWith('.v8cache'))).toHaveLength(1);
    // Issue 17: neither naming the code cache (its hash is baked in by the build) nor writing the
    // session's files (temp names: unique-hex.ts) loads node:crypto, about 8 ms of such a hook.
    const dump = path.join(home.root, 'modules.txt');
    const recorder = path.join(home.root, 'record-modules.cjs');
    fs.writeFileSync(
      recorder,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(dump)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const third = spawnSync(process.execPath, ['--require', recorder, shipped, 'session-start', '--assistant', 'claude'], {
      env: home.env,
      input: JSON.stringify({ ...payload, session_id: 'shipped-1b' }),
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    expect(third.stdout).toContain('小記');
    const loaded = fs.readFileSync(dump, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule fs');
    expect(loaded.filter((name) => /^NativeModule crypto$/.test(name))).toEqual([]);
  });

  it('bundles compiled for their code cache hold no import(), which has no loader there on Node 20', () => {
    // Only branches that run from source (ESM: no `require`) may import: the client's fallback and
    // opencc-js (opencc-tables.ts requires it in a bundle; recall-cli.test.ts recalls in Simplified).
    const fromSourceOnly = new Set(['import("./hook-fallback.js")', 'import("opencc-js/cn2t")', 'import("./recall-direct-fast.js")']);
    const bundles = [
      'dist/hooks/hook-client.js',
      'dist/hooks/hook-fallback.js',
      'dist/cli-fast/recall-fast.js',
      'dist/cli-fast/recall-direct-fast.js',
    ];
    for (const bundle of bundles) {
      const calls = fs.readFileSync(path.resolve(bundle), 'utf8').match(/\bimport\([^)]*\)/g) ?? [];
      expect({ bundle, calls: calls.filter((call) => !fromSourceOnly.has(call)) }).toEqual({ bundle, calls: [] });
    }
  });

  it('answers the same through `kioku hook <event>` (bin/kioku.js hands it to the launcher)', () => {
    home = homeWithRole();
    const payload = { session_id: 'shipped-3', cwd: home.root, hook_event_name: 'SessionStart', source: 'startup' };
    const direct = spawnSync(process.execPath, [shipped, 'session-start', '--assistant', 'claude'], {
      env: home.env,
      input: JSON.stringify(payload),
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    expect(direct.stdout).toContain('小記');
    const viaCli = runKioku(
      ['hook', 'session-start', '--assistant', 'claude'],
      home.env,
      JSON.stringify({ ...payload, session_id: 'shipped-3b' }),
    );
    expect(viaCli).toMatchObject({ code: 0, stderr: '' });
    expect(viaCli.stdout).toContain('小記');
    const silent = runKioku(['hook', 'user-prompt-submit'], home.env, JSON.stringify({ ...payload, prompt: '幫我把測試補齊' }));
    expect(silent).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('ends at once when it answered by itself, and the usual way when the fallback answered (issue 17)', () => {
    home = homeWithRole();
    const hook = (event: string, input: object) =>
      spawnSync(process.execPath, ['--trace-exit', shipped, event, '--assistant', 'claude'], {
        env: home!.env,
        input: JSON.stringify(input),
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      });
    // No daemon: the fallback answers, and its handlers may leave work for the event loop.
    const start = hook('session-start', { session_id: 'shipped-4', cwd: home.root, hook_event_name: 'SessionStart', source: 'startup' });
    expect(start.stdout).toContain('小記');
    expect(start.stderr).toBe('');
    // A prompt that names nobody is answered by the client alone: process.exit after the answer.
    const silent = hook('user-prompt-submit', {
      session_id: 'shipped-4',
      cwd: home.root,
      hook_event_name: 'UserPromptSubmit',
      prompt: '幫我把測試補齊',
    });
    expect(silent.status).toBe(0);
    expect(silent.stdout).toBe('');
    expect(silent.stderr).toContain('Exited the environment with code 0');
    expect(withoutExitTrace(silent.stderr)).toBe('');
  });

  it('answers a prompt that calls nobody in the launcher: no client, no crypto, no stream (issue 17)', () => {
    // A role and a session start first (which caches the names a prompt could call, call-names.json):
    // then a prompt that names nobody is surely not a call, answered before the client is loaded
    // (hooks/launcher-silent-prompt.ts).
    home = homeWithRole();
    const other = ['role', 'new', '--prefix', 'OTHER', '--name', '阿明', '--emoji', '🌊', '--nature', '直率', '--vibe', '爽快'];
    expect(runKioku(other, home.env).code).toBe(0);
    const dump = path.join(home.root, 'modules.txt');
    const recorder = path.join(home.root, 'record-modules.cjs');
    fs.writeFileSync(
      recorder,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(dump)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const payload = { session_id: 'shipped-2', cwd: home.root, hook_event_name: 'UserPromptSubmit', prompt: '幫我把測試補齊' };
    const hook = (args: string[], event: string, input: object) =>
      spawnSync(process.execPath, [...args, shipped, event, '--assistant', 'claude'], {
        env: home!.env,
        input: JSON.stringify(input),
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      });
    const start = hook([], 'session-start', {
      session_id: 'shipped-2',
      cwd: home.root,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    expect(start.stdout).toContain('小記');
    expect(fs.existsSync(dump)).toBe(false);
    const run = hook(['--require', recorder], 'user-prompt-submit', payload);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const loaded = fs.readFileSync(dump, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule fs');
    expect(loaded.filter((name) => /^NativeModule (crypto|stream)$/.test(name))).toEqual([]);
    // Not even node:vm, which loads the client with its code cache: the launcher answered alone.
    expect(loaded).not.toContain('NativeModule vm');
    // So the client's cache still names only the start (code-cached-require.ts), and the
    // fallback's the one event it answered.
    const cacheDir = path.join(home.config().paths.stateDir, 'cache');
    expect(cacheRoutes(cacheDir, 'hook-client-')).toEqual(['session-start/files']);
    expect(cacheRoutes(cacheDir, 'hook-fallback-')).toEqual(['session-start']);
    // A prompt that calls the other role goes on to the client with the stdin the launcher read.
    const call = hook(['--require', recorder], 'user-prompt-submit', { ...payload, prompt: '阿明，幫我看一下這段' });
    expect(call.status).toBe(0);
    expect(call.stderr).toBe('');
    expect(call.stdout).toContain('阿明');
    expect(fs.readFileSync(dump, 'utf8').split('\n')).toContain('NativeModule vm');
    expect(cacheRoutes(cacheDir, 'hook-client-')).toEqual(['session-start/files', 'user-prompt-submit/files']);
  });

  it('asks the daemon over the raw pipe handle: no node:net, about 4 ms of every hook the daemon answers (issue 17)', async () => {
    home = makeTempHome();
    const { paths } = home.config();
    // A daemon's side of the protocol, by hand: the token file, the socket, one reply per request.
    fs.mkdirSync(paths.stateDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(paths.tokenFile, `${'a'.repeat(64)}\n`, { mode: 0o600 });
    const requests: Array<{ id: string; event: string; token: string }> = [];
    const server = net.createServer((socket) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (!text.includes('\n')) return;
        const request = JSON.parse(text.slice(0, text.indexOf('\n'))) as { id: string; event: string; token: string };
        requests.push(request);
        socket.end(`${JSON.stringify({ v: PROTOCOL_VERSION, id: request.id, ok: true, stdout: '來自常駐程式', exitCode: 0 })}\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(paths.socketPath, resolve));
    try {
      const dump = path.join(home.root, 'modules.txt');
      const recorder = path.join(home.root, 'record-modules.cjs');
      fs.writeFileSync(
        recorder,
        `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(dump)}, process.moduleLoadList.join('\\n')));\n`,
      );
      const child = guardChild(
        spawn(process.execPath, ['--trace-exit', '--require', recorder, shipped, 'session-start', '--assistant', 'claude'], {
          env: home.env,
        }),
        60_000,
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end(JSON.stringify({ session_id: 'shipped-3', cwd: home.root, hook_event_name: 'SessionStart', source: 'startup' }));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      // Answered by the daemon, it ends at once (process.exit, which --trace-exit reports) and says nothing else.
      expect(stderr).toContain('Exited the environment with code 0');
      expect({ code, stdout, stderr: withoutExitTrace(stderr) }).toEqual({ code: 0, stdout: '來自常駐程式', stderr: '' });
      expect(requests).toMatchObject([{ event: 'session-start', token: 'a'.repeat(64) }]);
      const loaded = fs.readFileSync(dump, 'utf8').split('\n');
      expect(loaded).toContain('Internal Binding pipe_wrap');
      expect(loaded.filter((name) => /^NativeModule (net|stream|crypto)$/.test(name))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
