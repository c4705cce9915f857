import fs from 'node:fs';
import path from 'node:path';
import type { HookEvent } from '../../common/hook-events.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** Roles, sessions and transcripts for the call-by-name and role-lock tests (CALL-1). */

export interface RoleSpec {
  id: string;
  name: string;
  aliases?: string[];
}

/** The role skill's own example role, plus the names its text uses to explain overlaps. */
export const SILICA: RoleSpec = { id: 'SILICA01', name: '西莉卡', aliases: ['小珪'] };
export const YUI: RoleSpec = { id: 'YUI01', name: '結衣' };
export const LEOPARD: RoleSpec = { id: 'LEOPARD01', name: '小豹' };
export const LEOPARD_CUB: RoleSpec = { id: 'LEOPARDCUB01', name: '小豹子' };
export const MUSE: RoleSpec = { id: 'MUSE01', name: 'Muse', aliases: ['inspiration'] };

/** A two-file role as `kioku role new` writes it. */
export function writeRole(roleHome: string, role: RoleSpec): void {
  const aliases = role.aliases?.length ? `aliases: [${role.aliases.join(', ')}]\n` : '';
  fs.writeFileSync(
    path.join(roleHome, `${role.id}.identity.md`),
    `---\nid: ${role.id}\nname: ${role.name}\nemoji: ✨\n${aliases}created: 2025-05-01T10:00:00+08:00\nupdated: 2025-05-01T10:00:00+08:00\n---\n\n# ${role.name}\n\n## 簽名 emoji\n\n✨\n`,
  );
  fs.writeFileSync(
    path.join(roleHome, `${role.id}.soul.md`),
    `---\nid: ${role.id}\nupdated: 2025-05-01T10:00:00+08:00\n---\n\n## 本質（nature）\n\n${role.name} 的本質。\n\n## 氛圍（vibe）\n\n${role.name} 的氛圍。\n`,
  );
}

/** 14:00 local time on a weekday: outside the default 22:00–06:00 sleep window. */
export const DAY = new Date(2026, 2, 10, 14, 0, 0);
/** 23:30 local time: inside the default sleep window. */
export const NIGHT = new Date(2026, 2, 10, 23, 30, 0);

export interface CallHome extends TempHome {
  transcriptsDir: string;
}

/** A temp home with roles written and the clock frozen at `now` (KIOKU_NOW). */
export function makeCallHome(roles: RoleSpec[] = [SILICA, YUI, MUSE], now: Date = DAY, env: NodeJS.ProcessEnv = {}): CallHome {
  const home = makeTempHome({ KIOKU_NOW: now.toISOString(), ...env });
  for (const role of roles) writeRole(home.roleHome, role);
  const transcriptsDir = path.join(home.root, 'transcripts');
  fs.mkdirSync(transcriptsDir, { recursive: true });
  return { ...home, transcriptsDir };
}

/** A transcript file last written `minutesAgo` before `now` (liveness is judged by its mtime, LOCK-2). */
export function writeTranscript(home: CallHome, sessionId: string, minutesAgo = 0, now: Date = DAY): string {
  const file = path.join(home.transcriptsDir, `${sessionId}.jsonl`);
  fs.writeFileSync(file, '{"type":"user"}\n');
  const mtime = new Date(now.getTime() - minutesAgo * 60_000);
  fs.utimesSync(file, mtime, mtime);
  return file;
}

export function hookEvent(home: CallHome, sessionId: string | undefined, overrides: Partial<HookEvent> = {}): HookEvent {
  return {
    assistant: 'claude',
    event: 'user-prompt-submit',
    sessionId,
    transcriptPath: sessionId ? path.join(home.transcriptsDir, `${sessionId}.jsonl`) : undefined,
    cwd: home.root,
    receivedAt: DAY.toISOString(),
    payloadKeys: [],
    ...overrides,
  };
}

/** A prompt event for a session whose transcript exists and is fresh. */
export function promptFrom(home: CallHome, sessionId: string, prompt: string, overrides: Partial<HookEvent> = {}): HookEvent {
  writeTranscript(home, sessionId);
  return hookEvent(home, sessionId, { prompt, ...overrides });
}

export function lockFile(home: TempHome, roleId: string): string {
  return path.join(home.roleHome, '.locks', `${roleId}.lock`);
}

export function readLock(home: TempHome, roleId: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockFile(home, roleId), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function sessionRoleOf(home: TempHome, key: string): string | undefined {
  try {
    return fs.readFileSync(path.join(home.roleHome, '.sessions', `${key}.role`), 'utf8').trim();
  } catch {
    return undefined;
  }
}
