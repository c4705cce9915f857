import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantOfArgv, findAssistantProcesses, listProcProcesses, parsePsOutput } from './assistant-processes.js';

let root: string | undefined;
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A /proc look-alike: cmdline and environ NUL-separated, stat with the parent pid. */
function fakeProc(entries: Array<{ pid: number; ppid: number; argv: string[]; env?: string[] }>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-proc-'));
  for (const entry of entries) {
    const dir = path.join(root, String(entry.pid));
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'cmdline'), entry.argv.map((a) => `${a}\0`).join(''));
    fs.writeFileSync(path.join(dir, 'stat'), `${entry.pid} (${path.basename(entry.argv[0] ?? '')} x) S ${entry.ppid} 1 1 0`);
    fs.writeFileSync(path.join(dir, 'environ'), (entry.env ?? ['PATH=/usr/bin']).map((e) => `${e}\0`).join(''));
  }
  fs.mkdirSync(path.join(root, 'self'));
  fs.mkdirSync(path.join(root, '77')); // a kernel thread: no cmdline
  fs.writeFileSync(path.join(root, '77', 'cmdline'), '');
  return root;
}

describe('assistant processes (SLEEP-1: "偵測到有 AI 正在運行就不睡")', () => {
  it('recognises the three CLIs as binaries and as node scripts', () => {
    expect(assistantOfArgv(['/home/u/.local/bin/claude', '--resume'])).toBe('claude');
    expect(assistantOfArgv(['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'])).toBe('claude');
    expect(assistantOfArgv(['/usr/bin/node', '/usr/local/bin/gemini'])).toBe('gemini');
    expect(assistantOfArgv(['codex-x86_64-unknown-linux-musl', 'exec'])).toBe('codex');
    expect(assistantOfArgv(['node', '/opt/@openai/codex/bin/codex.js'])).toBe('codex');
    expect(assistantOfArgv(['vim', 'claude.md'])).toBeUndefined();
    expect(assistantOfArgv(['node', '/work/kioku/bin/kioku.js', 'hook', 'stop'])).toBeUndefined();
    expect(assistantOfArgv(['bash', '-c', 'claude'])).toBeUndefined();
  });

  it('reads /proc, and leaves out our own condenser runs and our descendants', () => {
    const proc = fakeProc([
      { pid: 100, ppid: 1, argv: ['/usr/bin/claude'] },
      { pid: 200, ppid: 1, argv: ['node', '/usr/local/bin/gemini', '-p', 'x'], env: ['KIOKU_HOOK_DISABLED=1', 'ROLE_ENABLED=0'] },
      { pid: 300, ppid: 1, argv: ['/usr/bin/sshd'] },
      { pid: 400, ppid: 1, argv: ['node', 'kioku-daemon.js'] },
      { pid: 401, ppid: 400, argv: ['bash'] },
      { pid: 402, ppid: 401, argv: ['codex', 'exec'] },
    ]);
    const processes = listProcProcesses(proc);
    expect(processes.map((p) => p.pid).sort()).toEqual([100, 200, 300, 400, 401, 402]);
    expect(processes.find((p) => p.pid === 200)?.kiokuRun).toBe(true);
    expect(processes.find((p) => p.pid === 402)?.ppid).toBe(401);
    expect(findAssistantProcesses(processes, 400)).toEqual([{ pid: 100, assistant: 'claude', command: '/usr/bin/claude' }]);
    // Seen from elsewhere, the daemon's grandchild is somebody's assistant.
    expect(findAssistantProcesses(processes, 999).map((p) => p.pid)).toEqual([100, 402]);
  });

  it('parses `ps -A -o pid=,ppid=,args=` output', () => {
    const processes = parsePsOutput(
      '    1     0 /sbin/launchd\n  512     1 /opt/homebrew/bin/claude --continue\n  600   512 node /x/gemini\n\n',
    );
    expect(processes).toEqual([
      { pid: 1, ppid: 0, argv: ['/sbin/launchd'] },
      { pid: 512, ppid: 1, argv: ['/opt/homebrew/bin/claude', '--continue'] },
      { pid: 600, ppid: 512, argv: ['node', '/x/gemini'] },
    ]);
    expect(findAssistantProcesses(processes, 512).map((p) => p.assistant)).toEqual([]); // itself and its child
    expect(findAssistantProcesses(processes, 42).map((p) => p.assistant)).toEqual(['claude', 'gemini']);
  });
});
