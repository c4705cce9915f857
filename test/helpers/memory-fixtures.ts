import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLooseDate } from '../../main/core/platform/config/clock.js';
import { stringifyFrontmatter } from '../../main/core/platform/frontmatter/stringify-frontmatter.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Memory files in the style the original role scripts wrote them (role SILICA01, 6 readable files). */
export const SEED000_FIXTURE = path.join(root, 'test', 'fixtures', 'seed000-memory');
export const SEED000_ROLE = 'SILICA01';

/** Copy the seed-000 fixture into a memory home; returns the role's memory folder. */
export function copySeed000Fixture(memoryHome: string): string {
  fs.cpSync(SEED000_FIXTURE, memoryHome, { recursive: true });
  return path.join(memoryHome, SEED000_ROLE);
}

/**
 * Write one memory file by hand (as a user or an old script would), returning its path. The
 * file's mtime is the memory's own `updated` (else `created`) when it has one: a test that freezes
 * KIOKU_NOW must not have the real clock leak in through a file time (issue 11: an inbox fixture
 * written "now" became the last interaction once the real day passed the frozen one).
 */
export function writeMemoryFixture(
  memoryHome: string,
  role: string,
  category: string,
  id: string,
  fields: Record<string, unknown>,
  body = '內容',
): string {
  const file = path.join(memoryHome, role, category, `${id}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, stringifyFrontmatter({ id, category, ...fields }, body));
  const stamp = [fields.updated, fields.created]
    .map((value) => (value instanceof Date ? value : typeof value === 'string' ? parseLooseDate(value) : undefined))
    .find(Boolean);
  if (stamp) fs.utimesSync(file, stamp, stamp);
  return file;
}

/** Bytes and mtime of every file below a folder: "reading changed nothing" checks. */
export function fingerprints(dir: string): Record<string, { bytes: string; mtimeMs: number }> {
  const out: Record<string, { bytes: string; mtimeMs: number }> = {};
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, name);
    const stat = fs.statSync(file);
    if (stat.isFile()) out[name] = { bytes: fs.readFileSync(file).toString('base64'), mtimeMs: stat.mtimeMs };
  }
  return out;
}
