import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSpoolRecord, type HookCall } from '../../../../common/hook-protocol.js';
import { ALL_SECRETS, SECRET_PROMPT, SECRET_REPLY } from '../../../../test/helpers/secrets.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { redactSync } from '../privacy/redact-sync.js';
import { syncWrittenFile } from '../fs/atomic-write.js';
import { writeSpoolRecord } from './spool-writer.js';

let home: TempHome | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  home?.cleanup();
  home = undefined;
});

describe('writeSpoolRecord', () => {
  it('leaves the fsyncs to the caller when asked (durable false), and syncWrittenFile does them, or nothing for a file gone', () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    const fsync = vi.spyOn(fs, 'fsyncSync');
    const call: HookCall = { eventId: 'later', assistant: 'claude', event: 'stop', payload: {}, env: {} };
    const file = writeSpoolRecord(spoolDir, call, 'daemon', new Date('2026-03-10T06:00:01Z'), undefined, false);
    expect(fs.existsSync(file)).toBe(true);
    expect(fsync).not.toHaveBeenCalled();
    syncWrittenFile(file);
    expect(fsync).toHaveBeenCalledTimes(2); // the file, then its folder
    fs.rmSync(file);
    syncWrittenFile(file);
    expect(fsync).toHaveBeenCalledTimes(2);
    writeSpoolRecord(spoolDir, { ...call, eventId: 'now' }, 'hook');
    expect(fsync).toHaveBeenCalledTimes(4); // durable by default
  });

  it('writes the payload redacted (PRIV-1 at rest), private to the user, ids untouched, the caller’s payload unchanged', () => {
    home = makeTempHome();
    const spoolDir = path.join(home.root, 'spool');
    const payload = { session_id: 'g1', transcript_path: '/t/g1.json', cwd: '/p', prompt: SECRET_PROMPT, prompt_response: SECRET_REPLY };
    const original = structuredClone(payload);
    const call: HookCall = {
      eventId: 'e1',
      assistant: 'gemini',
      event: 'stop',
      payload,
      env: { ROLE_NAME: 'SILICA01' },
      at: '2026-03-10T06:00:00.000Z',
    };
    const file = writeSpoolRecord(spoolDir, call, 'hook', new Date('2026-03-10T06:00:01Z'), 'SILICA01');

    const text = fs.readFileSync(file, 'utf8');
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const record = parseSpoolRecord(text);
    expect(record.ok && record.value).toMatchObject({
      eventId: 'e1',
      roleId: 'SILICA01',
      env: { ROLE_NAME: 'SILICA01' },
      spooledAt: '2026-03-10T06:00:00.000Z',
      payload: {
        session_id: 'g1',
        transcript_path: '/t/g1.json',
        cwd: '/p',
        prompt: redactSync(SECRET_PROMPT),
        prompt_response: redactSync(SECRET_REPLY),
      },
    });
    // The hook goes on with the call (SessionEnd releases locks from it): not redacted in place.
    expect(payload).toEqual(original);
  });
});
