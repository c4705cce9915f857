import { describe, expect, it } from 'vitest';
import { hrefFor, parseRoute } from './routes.js';

describe('hash routes', () => {
  it('reads every view and the role pages, and falls back to the role list', () => {
    expect(parseRoute('')).toEqual({ view: 'roles', page: { kind: 'list' } });
    expect(parseRoute('#/roles/new')).toEqual({ view: 'roles', page: { kind: 'new' } });
    expect(parseRoute('#/roles/ENGINEER01/edit')).toEqual({ view: 'roles', page: { kind: 'edit', id: 'ENGINEER01' } });
    expect(parseRoute('#/timeline')).toEqual({ view: 'timeline' });
    expect(parseRoute('#/timeline?type=rule&open=ENGINEER01:m-x')).toEqual({ view: 'timeline' });
    expect(parseRoute('#/nonsense')).toEqual({ view: 'roles', page: { kind: 'list' } });
  });

  it('round-trips', () => {
    for (const hash of ['#/roles', '#/roles/new', '#/roles/MUSE01/edit', '#/status', '#/settings'])
      expect(hrefFor(parseRoute(hash))).toBe(hash);
  });
});
