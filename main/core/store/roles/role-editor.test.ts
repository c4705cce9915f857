import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock, formatLocalIso } from '../../platform/config/clock.js';
import { loadConfig } from '../../platform/config/config.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { LEGACY_HELPER, SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { readActiveRoleId } from './role-active.js';
import { applyRoleUpdate, createRole, planRoleChange, type RolePlan } from './role-editor.js';
import { readRoleDefinition } from './role-repository.js';

let home: TempHome;
afterEach(() => home?.cleanup());

const NOW = '2026-02-03T04:05:06+08:00';
const config = () => loadConfig(home.env, { clock: fixedClock(NOW) });
const newRole = { name: '小豹', nature: '冷靜可靠', vibe: '簡潔', emoji: '🐆', prefix: 'ENGINEER' };

function expectUpdate(plan: RolePlan): Extract<RolePlan, { kind: 'update' }> {
  if (plan.kind !== 'update') throw new Error(`expected an update plan, got ${plan.kind}`);
  return plan;
}

describe('creating a role', () => {
  it('writes both files, the memory folders and .active when none is set', () => {
    home = makeTempHome();
    const plan = planRoleChange(config(), newRole);
    expect(plan.kind).toBe('create');
    const created = createRole(config(), plan as Extract<RolePlan, { kind: 'create' }>);
    expect(created.role.id).toBe('ENGINEER01');
    expect(created.madeActive).toBe(true);
    expect(readActiveRoleId(home.roleHome)).toBe('ENGINEER01');
    expect(fs.existsSync(path.join(home.memoryHome, 'ENGINEER01', 'inbox'))).toBe(true);
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01')).toMatchObject({
      name: '小豹',
      nature: '冷靜可靠',
      signature: '🐆',
      created: formatLocalIso(new Date(NOW)),
    });
  });

  it('lists every missing field and never guesses', () => {
    home = makeTempHome();
    expect(() => planRoleChange(config(), { name: '小豹', prefix: 'ENGINEER' })).toThrow('a new role needs --nature, --vibe, --emoji');
  });

  it('asks for --prefix when the name is not ASCII', () => {
    home = makeTempHome();
    expect(() => planRoleChange(config(), { ...newRole, prefix: undefined })).toThrow(
      expect.objectContaining({ code: 'BAD_USAGE', hint: expect.stringMatching(/--prefix/) }),
    );
  });
});

describe('updating a role (ROLE-5)', () => {
  function withEngineer(): void {
    home = makeTempHome();
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  }

  it('matches by display name, keeps fields not given, and shows only the given change', () => {
    withEngineer();
    const plan = expectUpdate(planRoleChange(config(), { name: '小豹', vibe: '更直白' }));
    expect(plan.changes.filter((change) => change.changed)).toEqual([
      { field: 'vibe', old: '簡潔直白、偶爾吐槽。', new: '更直白', changed: true },
    ]);
    expect(plan.role).toMatchObject({
      nature: '冷靜可靠的資深工程師，重證據、不打包票。',
      aliases: ['小豹子', 'leopard'],
      source: '原創角色。',
    });
  });

  it('gives the same token for the same change and a different one for other options or files', () => {
    withEngineer();
    const first = expectUpdate(planRoleChange(config(), { id: 'ENGINEER01', vibe: '更直白' }));
    const again = expectUpdate(
      planRoleChange(loadConfig(home.env, { clock: fixedClock('2026-02-04T00:00:00Z') }), { id: 'ENGINEER01', vibe: '更直白' }),
    );
    expect(again.token).toBe(first.token);
    expect(expectUpdate(planRoleChange(config(), { id: 'ENGINEER01', vibe: '別的' })).token).not.toBe(first.token);
    fs.appendFileSync(path.join(home.roleHome, 'ENGINEER01.soul.md'), '\n## 新章節\n\n手改\n');
    expect(expectUpdate(planRoleChange(config(), { id: 'ENGINEER01', vibe: '更直白' })).token).not.toBe(first.token);
  });

  it('writes nothing for a wrong token, and exactly the change for the right one', () => {
    withEngineer();
    const plan = expectUpdate(planRoleChange(config(), { id: 'ENGINEER01', vibe: '更直白' }));
    const before = snapshotTree(home.roleHome);
    expect(() => applyRoleUpdate(config(), plan, 'ffffffffff')).toThrow(expect.objectContaining({ code: 'CONFIRM_NEEDED' }));
    expect(snapshotTree(home.roleHome)).toEqual(before);
    applyRoleUpdate(config(), plan, plan.token);
    const after = readRoleDefinition(home.roleHome, 'ENGINEER01');
    expect(after.vibe).toBe('更直白');
    const { vibe: _v, updated: _u, ...rest } = after;
    const { vibe: _ov, updated: _ou, ...oldRest } = plan.current;
    expect(rest).toEqual(oldRest);
    expect(after.updated).toBe(formatLocalIso(new Date(NOW)));
  });

  it('refuses a right token when the files changed in between', () => {
    withEngineer();
    const plan = expectUpdate(planRoleChange(config(), { id: 'ENGINEER01', vibe: '更直白' }));
    fs.appendFileSync(path.join(home.roleHome, 'ENGINEER01.identity.md'), '\n');
    expect(() => applyRoleUpdate(config(), plan, plan.token)).toThrow(/does not match/);
  });

  it('rewrites the fields it does not change verbatim, trailing spaces (hard breaks) included', () => {
    home = makeTempHome();
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    writeText(
      home.roleHome,
      'ENGINEER01.soul.md',
      SPLIT_ENGINEER_SOUL.replace('冷靜可靠的資深工程師，重證據、不打包票。', 'line one  \nline two'),
    );
    const plan = expectUpdate(planRoleChange(config(), { id: 'ENGINEER01', vibe: '更直白' }));
    applyRoleUpdate(config(), plan, plan.token);
    expect(fs.readFileSync(path.join(home.roleHome, 'ENGINEER01.soul.md'), 'utf8')).toContain(
      '## 本質（nature）\n\nline one  \nline two\n\n',
    );
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01').nature).toBe('line one  \nline two');
  });

  it('writes a legacy role in the two-file format and leaves the legacy file byte for byte', () => {
    home = makeTempHome();
    const legacy = writeText(home.roleHome, 'HELPER01.md', LEGACY_HELPER);
    const plan = expectUpdate(planRoleChange(config(), { id: 'HELPER01', emoji: '🌷' }));
    applyRoleUpdate(config(), plan, plan.token);
    expect(fs.readFileSync(legacy, 'utf8')).toBe(LEGACY_HELPER);
    const role = readRoleDefinition(home.roleHome, 'HELPER01');
    expect(role).toMatchObject({
      format: 'split',
      emoji: '🌷',
      signature: '🌷',
      created: '2025-03-01T09:00:00+08:00',
      nature: '溫柔體貼的 AI，擅長整理資訊。\n遇到不確定時會先問。',
    });
    expect(fs.readFileSync(path.join(home.roleHome, 'HELPER01.soul.md'), 'utf8')).not.toContain('共用行為');
  });
});
