import { describe, expect, it } from 'vitest';
import { fill } from '../../i18n/fill.js';
import { zhTW, type MessageKey } from '../../i18n/messages-zh-TW.js';
import { createRequest, EMPTY_ROLE_FORM, editInput, splitAliases, validateRoleForm, type RoleFormValues } from './role-form.js';

const t = (key: MessageKey, values?: Record<string, string | number>) => fill(zhTW[key], values);
const valid: RoleFormValues = { ...EMPTY_ROLE_FORM, name: '小豹', emoji: '🐆', nature: '冷靜', vibe: '簡潔', prefix: 'ENGINEER' };

describe('the role form checks (mirroring common/role-id.ts)', () => {
  it('accepts a complete role and asks for nothing', () => {
    expect(validateRoleForm(valid, 'create', t)).toEqual({});
  });

  it('names every missing required field in Chinese', () => {
    const errors = validateRoleForm(EMPTY_ROLE_FORM, 'create', t);
    expect(errors).toMatchObject({ name: '請填寫顯示名稱。', emoji: '請填寫簽名 emoji。', nature: '請填寫本質。', vibe: '請填寫氛圍。' });
  });

  it('asks for a prefix when the display name cannot give one, and not when it can', () => {
    expect(validateRoleForm({ ...valid, prefix: '' }, 'create', t).prefix).toContain('請填寫 ID 前綴');
    expect(validateRoleForm({ ...valid, name: 'Researcher', prefix: '' }, 'create', t)).toEqual({});
    expect(validateRoleForm({ ...valid, prefix: '', customId: 'ENGINEER07' }, 'create', t)).toEqual({});
  });

  it('refuses bad prefixes and IDs before anything is sent', () => {
    expect(validateRoleForm({ ...valid, prefix: 'eng' }, 'create', t).prefix).toBeDefined();
    expect(validateRoleForm({ ...valid, customId: 'engineer01' }, 'create', t).customId).toBe('ID 必須是大寫，例如 ENGINEER01。');
    expect(validateRoleForm({ ...valid, customId: 'YUI01' }, 'create', t).customId).toBeDefined(); // too short for a new role
    expect(validateRoleForm({ ...valid, customId: '../X01' }, 'create', t).customId).toBeDefined();
  });

  it('ignores the ID fields when editing, and keeps names on one line', () => {
    expect(validateRoleForm({ ...valid, prefix: 'bad', customId: 'bad' }, 'edit', t)).toEqual({});
    expect(validateRoleForm({ ...valid, name: '小\n豹' }, 'edit', t).name).toBe('顯示名稱只能有一行。');
  });

  it('builds the requests main expects', () => {
    expect(splitAliases('豹哥、leopard， 小豹 ,,')).toEqual(['豹哥', 'leopard', '小豹']);
    expect(createRequest({ ...valid, aliases: '豹哥' })).toEqual({
      input: {
        name: '小豹',
        emoji: '🐆',
        nature: '冷靜',
        vibe: '簡潔',
        relationship: '',
        source: '',
        aliases: ['豹哥'],
        prefix: 'ENGINEER',
      },
    });
    expect(editInput('ENGINEER01', { ...valid, name: ' 小豹二代 ' })).toMatchObject({ id: 'ENGINEER01', name: '小豹二代' });
  });
});
