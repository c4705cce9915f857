import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import type { Logger } from '../../platform/config/log.js';
import { forgetMemories } from '../../store/memory/forget.js';
import { loadRoleMemories } from '../../store/memory/memory-layout.js';
import { runBrief } from './run-brief.js';

const ROLE = 'TESTER01';
const NOW = '2026-12-01T06:00:00+08:00';
let home: TempHome;
let checks: string;

beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: NOW });
  checks = path.join(home.roleHome, `${ROLE}.checks`);
});
afterEach(() => home.cleanup());

function script(name: string, body: string, mode = 0o755): string {
  fs.mkdirSync(checks, { recursive: true });
  const file = path.join(checks, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode });
  fs.chmodSync(file, mode);
  return file;
}

const memories = () => loadRoleMemories(home.memoryHome, ROLE).memories;

function captureLogger(lines: string[]): Logger {
  const log = (stage: string, level: string, message: string) => void lines.push(`[${stage}][${level}] ${message}`);
  return { log, info: (s, m) => log(s, 'INFO', m), warn: (s, m) => log(s, 'WARN', m), error: (s, m) => log(s, 'ERROR', m) };
}

/** True while a process exists and is not a zombie (a container's PID 1 may never reap them). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

describe('what runs (seed 000 §--brief)', () => {
  it('no checks folder: nothing at all — no memory, no warning, nothing written', async () => {
    const before = snapshotTree(home.root);
    const result = await runBrief(home.config(), ROLE);
    expect(result).toMatchObject({ hasChecks: false, ran: [], skipped: [], memory: null, warnings: [] });
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('runs executable *.sh in name order; others are skipped with the chmod to run; other files ignored', async () => {
    script('20-second.sh', 'echo "第二：$ROLE_NAME"');
    script('10-first.sh', 'echo 第一');
    const notExec = script('15-imported.sh', 'echo 不該執行', 0o644);
    script('.hidden.sh', 'echo hidden');
    fs.writeFileSync(path.join(checks, 'README.txt'), 'notes');
    fs.mkdirSync(path.join(checks, 'lib.sh'));
    const logLines: string[] = [];
    const result = await runBrief(home.config(), ROLE, { logger: captureLogger(logLines) });
    expect(result.ran).toEqual(['10-first.sh', '20-second.sh']);
    expect(result.skipped).toEqual(['15-imported.sh']);
    expect(result.scripts.map((s) => [s.name, s.status])).toEqual([
      ['10-first.sh', 'reported'],
      ['15-imported.sh', 'skipped'],
      ['20-second.sh', 'reported'],
    ]);
    const warning = result.warnings.find((w) => w.includes('15-imported.sh'));
    expect(warning).toContain(`chmod +x '${notExec}'`);
    expect(logLines.some((line) => line.startsWith('[brief][WARN]') && line.includes(notExec))).toBe(true);
    const [memory] = memories();
    expect(memory?.body).toContain('## 10-first.sh\n第一');
    expect(memory?.body).toContain(`## 20-second.sh\n第二：${ROLE}`);
    expect(memory?.body).not.toContain('不該執行');
  });

  it('ROLE_BRIEF_ENABLED=0 runs nothing', async () => {
    script('10-loud.sh', 'echo 有事');
    const result = await runBrief(home.config({ ROLE_BRIEF_ENABLED: '0' }), ROLE);
    expect(result).toMatchObject({ enabled: false, ran: [], memory: null });
    expect(memories()).toEqual([]);
  });
});

describe('the memory', () => {
  it('every script silent (or failing quietly): nothing to report, no memory', async () => {
    script('10-quiet.sh', 'exit 0');
    script('20-fails.sh', 'echo "cannot reach the server" >&2; exit 3');
    const logLines: string[] = [];
    const result = await runBrief(home.config(), ROLE, { logger: captureLogger(logLines) });
    expect(result.ran).toEqual(['10-quiet.sh', '20-fails.sh']);
    expect(result.scripts.map((s) => s.status)).toEqual(['silent', 'silent']);
    expect(result.scripts[1]?.exitCode).toBe(3);
    expect(result.memory).toBeNull();
    expect(fs.existsSync(path.join(home.memoryHome, ROLE))).toBe(false);
    expect(logLines.some((line) => line.includes('20-fails.sh exited with 3: cannot reach the server'))).toBe(true);
  });

  it('is one low-priority daily episodic memory, written directly (seed), tagged brief/晨報, that fades in a week', async () => {
    script('10-disk.sh', 'printf "\\033[31m磁碟 / 使用率 95%%\\033[0m\\n"');
    script('20-ci.sh', 'echo "CI 昨晚失败了"');
    const result = await runBrief(home.config(), ROLE);
    expect(result.memory).not.toBeNull();
    const all = memories();
    expect(all).toHaveLength(1);
    const memory = all[0]!;
    expect(memory).toMatchObject({
      category: 'daily',
      memory_type: 'episodic',
      priority: 2,
      tags: ['brief', '晨報'],
      sleep_stage: 'seed',
      retention_stage: 'long_term',
      path: result.memory!.path,
      summary: '晨間狀態檢查：磁碟 / 使用率 95%（另有 1 項）',
    });
    expect(new Date(memory.created).getTime()).toBe(Date.parse(NOW));
    // Terminal colours gone; Simplified turned into Traditional like every stored text.
    expect(memory.body).toContain('## 10-disk.sh\n磁碟 / 使用率 95%\n');
    expect(memory.body).toContain('CI 昨晚失敗了');
    // The forgetting table lets it go after 7 days (daily, episodic, priority 2, no links).
    const sixDays = home.config({ KIOKU_NOW: '2026-12-07T23:59:00+08:00' });
    expect(forgetMemories(sixDays, ROLE, { dryRun: true }).forgotten).toEqual([]);
    const sevenDays = home.config({ KIOKU_NOW: '2026-12-08T06:00:00+08:00' });
    expect(forgetMemories(sevenDays, ROLE, { dryRun: true }).forgotten.map((f) => f.id)).toEqual([memory.id]);
  });

  it('redacts what the scripts print before it is cut or stored', async () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    script('10-leaky.sh', `echo "deploy with token=${token}"; echo "contact ops@example.org"`);
    const result = await runBrief(home.config(), ROLE);
    const text = fs.readFileSync(result.memory!.path, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain('ops@example.org');
    expect(text).toContain('[REDACTED');
    expect(result.scripts[0]?.output).not.toContain(token);
  });
});

describe('limits', () => {
  it('ROLE_BRIEF_EACH_LIMIT cuts each script at a line end and says how much', async () => {
    const lines = ['第一行：一二三四五六', '第二行：一二三四五六', '第三行：一二三四五六'];
    script('10-long.sh', lines.map((line) => `echo "${line}"`).join('\n'));
    const result = await runBrief(home.config({ ROLE_BRIEF_EACH_LIMIT: '15' }), ROLE);
    const report = result.scripts[0]!;
    expect(report.output).toBe(lines[0]);
    expect(report.cut).toBe(Array.from(lines.join('\n')).length - Array.from(lines[0]!).length);
    expect(fs.readFileSync(result.memory!.path, 'utf8')).toContain(`${lines[0]}\n（以下截斷 ${report.cut} 字）`);
  });

  it('ROLE_BRIEF_LIMIT cuts the whole brief at a line end and says how much', async () => {
    script('10-a.sh', 'echo "甲甲甲甲甲甲甲甲甲甲"');
    script('20-b.sh', 'echo "乙乙乙乙乙乙乙乙乙乙"');
    const result = await runBrief(home.config({ ROLE_BRIEF_LIMIT: '25' }), ROLE);
    const body = loadRoleMemories(home.memoryHome, ROLE).memories[0]!.body;
    expect(body).toContain('## 10-a.sh\n甲甲甲甲甲甲甲甲甲甲');
    expect(body).not.toContain('乙');
    expect(result.totalCut).toBeGreaterThan(0);
    expect(body).toContain(`以下截斷 ${result.totalCut} 字`);
  });

  it('ROLE_BRIEF_TIMEOUT stops a slow script and its whole process group, keeps what it said, and goes on', async () => {
    const pidFile = path.join(home.root, 'background.pid');
    script('10-slow.sh', `echo "開始檢查"\nsleep 30 &\necho $! > "${pidFile}"\nwait`);
    script('20-next.sh', 'echo 下一個照跑');
    const result = await runBrief(home.config({ ROLE_BRIEF_TIMEOUT: '1' }), ROLE);
    expect(result.timedOut).toEqual(['10-slow.sh']);
    expect(result.scripts[0]).toMatchObject({ status: 'timed-out', output: '開始檢查', exitCode: null });
    expect(result.scripts[1]).toMatchObject({ status: 'reported', output: '下一個照跑' });
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    // The kill is sent before runBrief returns; give the kernel a moment to finish it.
    for (let i = 0; i < 1500 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
    const body = memories()[0]!.body;
    expect(body).toContain('## 10-slow.sh\n開始檢查\n（逾時 1 秒，已中止）');
    expect(body).toContain('## 20-next.sh\n下一個照跑');
  });
});
