import path from 'node:path';

/**
 * `path.join(base, ...rel.split('/'))` for the common case written out: `base` already a normal
 * absolute path without a trailing separator, `rel` plain names joined by '/' (no '.', '..', empty
 * or backslashed part) — a memory's path under the memory home as the index keeps it, a category
 * folder under a role's. Then the join is the strings side by side, and anything else goes
 * through path.join.
 *
 * Why not path.join every time: its normalising loop walks every character, and the few dozen
 * joins of a CLI recall (each hit's path, twice, each folder of the role) made it hot enough for
 * V8 to optimise it on another thread — a compilation the process then waited for before it could
 * exit, about a millisecond of every recall without the daemon (issue 17, seen with --trace-opt;
 * whether it happened depended on the length of the home's path). plain-join.test.ts compares the
 * two on ordinary and awkward inputs.
 */
const PLAIN_PART = '(?!\\.\\.?(?:/|$))[^/\\\\]+';
const PLAIN_REL = new RegExp(`^${PLAIN_PART}(?:/${PLAIN_PART})*$`);
/** A POSIX absolute path of plain names: what path.normalize leaves as it is (the root aside). */
const NORMAL_POSIX_BASE = new RegExp(`^(?:/${PLAIN_PART})+$`);

/** Whether `base` is a normal absolute path without a trailing separator; elsewhere than POSIX, path.normalize says. */
function isNormalBase(base: string): boolean {
  if (path.sep === '/') return NORMAL_POSIX_BASE.test(base);
  return path.isAbsolute(base) && !base.endsWith(path.sep) && !base.endsWith('/') && path.normalize(base) === base;
}

export function joinPlain(base: string, rel: string): string {
  if (!isNormalBase(base) || !PLAIN_REL.test(rel)) return path.join(base, ...rel.split('/'));
  return base + path.sep + (path.sep === '/' ? rel : rel.split('/').join(path.sep));
}
