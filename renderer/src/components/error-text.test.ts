import { describe, expect, it } from 'vitest';
import { UI_ERROR_REASONS, type UiErrorCode } from '../../../common/ui-contract.js';
import { fill } from '../i18n/fill.js';
import { en } from '../i18n/messages-en.js';
import { zhTW, type MessageKey } from '../i18n/messages-zh-TW.js';
import { uiErrorText } from './error-text.js';

// A compile error here when a code is added to the contract without being listed.
const ALL_CODES: Record<UiErrorCode, true> = {
  BAD_USAGE: true,
  CONFIRM_NEEDED: true,
  INVALID_ID: true,
  NOT_FOUND: true,
  ALREADY_EXISTS: true,
  AMBIGUOUS: true,
  REFUSED: true,
  INVALID_FILE: true,
  INVALID_ARCHIVE: true,
  LOCKED: true,
  LIMIT_EXCEEDED: true,
  IO: true,
  BAD_REQUEST: true,
  UNKNOWN_CHANNEL: true,
  UNAUTHORIZED: true,
  FORBIDDEN: true,
  INTERNAL: true,
  UNAVAILABLE: true,
};

const translator = (catalogue: Record<string, string>) => (key: MessageKey, values?: Record<string, string | number>) =>
  catalogue[key] === undefined ? key : fill(catalogue[key], values);

describe('the UI text for errors from main', () => {
  it('has a zh-TW and an en text for every reason and every code', () => {
    const catalogues: Record<string, Record<string, string>> = { zhTW, en };
    for (const [language, catalogue] of Object.entries(catalogues)) {
      for (const reason of UI_ERROR_REASONS) expect(catalogue[`error.reason.${reason}`], `${language} ${reason}`).toMatch(/\S/);
      for (const code of Object.keys(ALL_CODES)) expect(catalogue[`error.code.${code}`], `${language} ${code}`).toMatch(/\S/);
    }
  });

  it('shows its own text with the values filled in, never the server sentence or a CLI hint', () => {
    const error = {
      code: 'ALREADY_EXISTS',
      message: 'role WRITER01 (小筆) already exists',
      hint: 'run `kioku role edit`',
      reason: 'role.exists',
      reasonValues: { id: 'WRITER01', name: '小筆' },
    } as const;
    const text = uiErrorText(translator(zhTW), error);
    expect(text).toContain('WRITER01（小筆）');
    expect(text).not.toContain('already exists');
    expect(text).not.toContain('kioku');
    expect(uiErrorText(translator(en), error)).toContain('There is already a role WRITER01 (小筆)');
  });

  it('falls back to the code text, then to a generic text, for a reason or code it does not know', () => {
    expect(uiErrorText(translator(zhTW), { code: 'LOCKED', message: 'x', reason: 'no.such' as never })).toBe(zhTW['error.code.LOCKED']);
    expect(uiErrorText(translator(zhTW), { code: 'SOMETHING_NEW' as never, message: 'pass --project DIR' })).toBe(zhTW['error.title']);
  });
});
