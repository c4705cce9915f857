import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinPlain } from './plain-join.js';

describe('joinPlain', () => {
  it('gives what path.join gives, for plain names and for every awkward part that takes path.join itself', () => {
    const bases = [
      '/home/u/.memory',
      '/tmp/a\\b',
      '/home/u/..memory',
      '/tmp/kioku-cli-bench-HJRUb3',
      '/',
      '/home/u/.memory/',
      '/home//u/./x',
      'relative/home',
      '/a/b/..',
    ];
    const rels = [
      'R/daily/20260101-x.md',
      '咖啡/notes/會議 紀錄.md',
      'daily',
      'R/../x.md',
      'R/./x.md',
      '..',
      '.',
      'R//x.md',
      '/R/x.md',
      'R/x.md/',
      'R\\daily\\x.md',
      '.hidden/x.md',
      '..md/x',
      '',
    ];
    for (const base of bases)
      for (const rel of rels) expect(joinPlain(base, rel), `${base} + ${rel}`).toBe(path.join(base, ...rel.split('/')));
  });

  it('joins plain names by concatenation, leaving path.join alone (the point of it)', () => {
    const join = path.join;
    let calls = 0;
    path.join = (...parts: string[]) => ((calls += 1), join(...parts));
    try {
      const home = path.resolve('/home/u/.memory');
      expect(joinPlain(home, 'R/daily/x.md')).toBe([home, 'R', 'daily', 'x.md'].join(path.sep));
      expect(calls).toBe(0);
      joinPlain(home, 'R/../x.md');
      expect(calls).toBe(1);
    } finally {
      path.join = join;
    }
  });
});
