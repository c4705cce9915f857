import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { readRoleOrder, roleOrderFile, sortByRoleOrder, writeRoleOrder } from './role-order.js';

let home: TempHome;
afterEach(() => home?.cleanup());

describe('the role order file', () => {
  it('round-trips, dropping repeats', () => {
    home = makeTempHome();
    expect(readRoleOrder(home.roleHome)).toEqual([]);
    expect(writeRoleOrder(home.roleHome, ['WRITER01', 'ENGINEER01', 'WRITER01'])).toEqual(['WRITER01', 'ENGINEER01']);
    expect(readRoleOrder(home.roleHome)).toEqual(['WRITER01', 'ENGINEER01']);
  });

  it('refuses anything that is not a role ID before writing', () => {
    home = makeTempHome();
    writeRoleOrder(home.roleHome, ['WRITER01']);
    expect(() => writeRoleOrder(home.roleHome, ['WRITER01', '../x'])).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
    expect(readRoleOrder(home.roleHome)).toEqual(['WRITER01']);
  });

  it('skips hand-broken lines instead of failing', () => {
    home = makeTempHome();
    fs.writeFileSync(roleOrderFile(home.roleHome), '\uFEFFWRITER01\r\nnot an id\n\n  ENGINEER01  \n');
    expect(readRoleOrder(home.roleHome)).toEqual(['WRITER01', 'ENGINEER01']);
  });
});

describe('sorting by the order', () => {
  const items = ['ARTIST01', 'ENGINEER01', 'WRITER01', 'YUI01'].map((id) => ({ id }));

  it('puts ordered roles first and keeps the others in their order after them', () => {
    expect(sortByRoleOrder(items, ['WRITER01', 'ARTIST01']).map((item) => item.id)).toEqual([
      'WRITER01',
      'ARTIST01',
      'ENGINEER01',
      'YUI01',
    ]);
  });

  it('ignores IDs of roles that are gone', () => {
    expect(sortByRoleOrder(items, ['GONE01', 'YUI01']).map((item) => item.id)).toEqual(['YUI01', 'ARTIST01', 'ENGINEER01', 'WRITER01']);
  });
});
