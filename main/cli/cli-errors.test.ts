import { describe, expect, it } from 'vitest';
import { KiokuError } from '../../common/errors.js';
import { reportCliError } from './cli-errors.js';

function report(error: unknown, env: NodeJS.ProcessEnv = {}) {
  let text = '';
  const code = reportCliError(error, (chunk) => (text += chunk), env);
  return { code, text };
}

describe('reportCliError', () => {
  it('prints a KiokuError with its hint and the exit code of its kind', () => {
    expect(report(new KiokuError('BAD_USAGE', 'bad --limit', { hint: 'e.g. --limit 5' }))).toEqual({
      code: 2,
      text: 'kioku: bad --limit\n  → e.g. --limit 5\n',
    });
    expect(report(new KiokuError('CONFIRM_NEEDED', 'confirm')).code).toBe(3);
    expect(report(new KiokuError('INVALID_FILE', 'broken')).code).toBe(1);
  });

  it('names the path of a file-system error instead of calling it a bug', () => {
    const error = Object.assign(new Error('ENOTDIR: not a directory'), { code: 'ENOTDIR', path: '/tmp/file/roles', syscall: 'mkdir' });
    const { code, text } = report(error);
    expect(code).toBe(1);
    expect(text).toContain('kioku: cannot mkdir /tmp/file/roles: a part of the path is a file, not a folder (ENOTDIR)');
    expect(text).not.toContain('bug');
  });

  it('shows no stack unless KIOKU_DEBUG=1', () => {
    const bug = new TypeError('x is undefined');
    expect(report(bug).text).not.toContain('at ');
    expect(report(bug).text).toContain('this is a bug in Kioku');
    expect(report(bug, { KIOKU_DEBUG: '1' }).text).toContain('TypeError: x is undefined\n    at ');
  });
});
