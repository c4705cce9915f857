import { describe, expect, it } from 'vitest';
import { explainInvalidNewRoleId, explainInvalidRoleId, isValidRoleId, splitRoleId } from './role-id.js';

describe('role IDs', () => {
  it('accepts existing seed-era IDs but mints only 4–16 character prefixes', () => {
    expect(isValidRoleId('ENGINEER01')).toBe(true);
    expect(isValidRoleId('YUI01')).toBe(true);
    expect(explainInvalidNewRoleId('ENGINEER01')).toBeUndefined();
    expect(explainInvalidNewRoleId('YUI01')).toMatch(/too short for a new role/);
  });

  it('refuses anything that is not path-safe uppercase ASCII', () => {
    for (const bad of [
      '../x',
      'engineer01',
      'ENGINEER-01',
      'ENG_01',
      'ENG 01',
      '工程師01',
      '/tmp/X01',
      '..',
      'ENGINEER1',
      '',
      'ENGINEER01/',
    ]) {
      expect(isValidRoleId(bad), bad).toBe(false);
      expect(explainInvalidRoleId(bad), bad).toBeTruthy();
    }
  });

  it('suggests the uppercase form when that is the only problem', () => {
    expect(explainInvalidRoleId('engineer01')).toContain('ENGINEER01');
    expect(explainInvalidRoleId('工程師01')).toMatch(/non-ASCII/);
  });

  it('splits prefix and index', () => {
    expect(splitRoleId('MUSE02')).toEqual({ prefix: 'MUSE', index: 2 });
    expect(splitRoleId('bad')).toBeUndefined();
  });
});
