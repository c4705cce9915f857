import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * "Is an AI assistant running right now?" (SLEEP-1: the sleep schedule checks hourly; while an AI
 * assistant is running the role does not sleep and tries again next hour).
 * Design notes: docs/design-notes.md, "main/core/engine/schedule/assistant-processes.ts".
 */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  argv: string[];
  /** Set when the environment could be read (Linux, same user) and marks a Kioku-run CLI. */
  kiokuRun?: boolean;
}

export interface AssistantProcess {
  pid: number;
  assistant: 'claude' | 'codex' | 'gemini';
  command: string;
}

const ASSISTANT_NAMES = ['claude', 'codex', 'gemini'] as const;
/** npm packages whose entry scripts are these CLIs when started as `node <script>`. */
const PACKAGE_MARKS: Record<string, AssistantProcess['assistant']> = {
  '@anthropic-ai/claude-code': 'claude',
  '@openai/codex': 'codex',
  '@google/gemini-cli': 'gemini',
};
const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno']);

/** `claude`, `codex.js`, `codex-x86_64-unknown-linux-musl`, `gemini.exe` → the assistant, if any. */
function assistantOfExecutable(file: string): AssistantProcess['assistant'] | undefined {
  const base = path
    .basename(file.replace(/\\/g, '/'))
    .toLowerCase()
    .replace(/\.(exe|js|mjs|cjs)$/, '');
  return ASSISTANT_NAMES.find((name) => base === name || base.startsWith(`${name}-`));
}

/** Which assistant a command line runs, if it runs one. */
export function assistantOfArgv(argv: readonly string[]): AssistantProcess['assistant'] | undefined {
  const [first, second] = argv;
  if (!first) return undefined;
  const direct = assistantOfExecutable(first);
  if (direct) return direct;
  const interpreter = path
    .basename(first)
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (INTERPRETERS.has(interpreter) && second) {
    const script = second.replace(/\\/g, '/');
    for (const [mark, assistant] of Object.entries(PACKAGE_MARKS)) if (script.includes(`/${mark}/`)) return assistant;
    return assistantOfExecutable(script);
  }
  return undefined;
}

function readProc(procRoot: string, pid: string, file: string): Buffer | undefined {
  try {
    return fs.readFileSync(path.join(procRoot, pid, file));
  } catch {
    return undefined; // gone meanwhile, or another user's
  }
}

/** Every process under a /proc-like folder (the folder is a parameter so tests can build one). */
export function listProcProcesses(procRoot = '/proc'): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of fs.readdirSync(procRoot)) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = readProc(procRoot, name, 'cmdline');
    if (!cmdline || cmdline.length === 0) continue; // kernel threads, zombies
    const argv = cmdline
      .toString('utf8')
      .split('\0')
      .filter((part) => part !== '');
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
    const stat = readProc(procRoot, name, 'stat')?.toString('utf8') ?? '';
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? NaN);
    const info: ProcessInfo = { pid: Number(name), ppid: Number.isFinite(ppid) ? ppid : 0, argv };
    // Only worth reading for the processes that matter: environ can be large.
    if (assistantOfArgv(argv)) {
      const environ = readProc(procRoot, name, 'environ');
      if (environ) info.kiokuRun = environ.toString('utf8').split('\0').includes('KIOKU_HOOK_DISABLED=1');
    }
    out.push(info);
  }
  return out;
}

/** `ps` output as processes: arguments are split on spaces (paths with spaces are rare for CLIs). */
export function parsePsOutput(text: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.+)$/.exec(line);
    if (!match) continue;
    out.push({ pid: Number(match[1]), ppid: Number(match[2]), argv: match[3]!.trim().split(/\s+/) });
  }
  return out;
}

export function listPsProcesses(): ProcessInfo[] {
  const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], {
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return parsePsOutput(text);
}

/** The processes of this machine, by the cheapest means the platform has. */
export function listProcesses(): ProcessInfo[] {
  if (process.platform === 'linux' && fs.existsSync('/proc/self/cmdline')) return listProcProcesses('/proc');
  return listPsProcesses();
}

/** Assistant CLIs among `processes`, leaving out Kioku's own runs and this process's descendants. */
export function findAssistantProcesses(processes: readonly ProcessInfo[], ownPid = process.pid): AssistantProcess[] {
  const parentOf = new Map(processes.map((p) => [p.pid, p.ppid]));
  const descendsFromUs = (pid: number) => {
    for (
      let current = parentOf.get(pid), hops = 0;
      current !== undefined && current > 1 && hops < 64;
      current = parentOf.get(current), hops++
    ) {
      if (current === ownPid) return true;
    }
    return false;
  };
  const found: AssistantProcess[] = [];
  for (const p of processes) {
    if (p.pid === ownPid || p.kiokuRun || descendsFromUs(p.pid)) continue;
    const assistant = assistantOfArgv(p.argv);
    if (assistant) found.push({ pid: p.pid, assistant, command: p.argv.join(' ').slice(0, 200) });
  }
  return found;
}
