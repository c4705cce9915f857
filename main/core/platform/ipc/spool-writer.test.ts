import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpoolRecord, type HookCall } from '../../../../common/hook-protocol.js';
import { ALL_SECRETS, SECRET_PROMPT, SECRET_REPLY } from '../../../../test/helpers/secrets.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { redactSync } from '../privacy/redact-sync.js';
import { writeSpoolRecord } from './spool-writer.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

describe('writeSpoolRecord', () => {
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
