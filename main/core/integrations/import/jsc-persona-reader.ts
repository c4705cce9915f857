import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { loadYamlGuarded } from '../../platform/frontmatter/guarded-yaml.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { gistOf, toStringList } from '../../store/memory/memory-file.js';
import { importedMemoryId } from './import-ids.js';
import type { ImportedMemoryDraft } from './import-memory-writer.js';
import type { ImportedPersona } from './import-role.js';
import type { ImportSkip } from './import-types.js';
import { mapLongTermType, priorityFromSalience } from './jsc-persona-mapping.js';
import { readPersonaMarkdown } from './persona-markdown.js';

/**
 * Persona-memory (jsc) persona folders, read-only.
 * Design notes: docs/design-notes.md, "main/core/integrations/import/jsc-persona-reader.ts".
 */
export const DEFINITION_FILES = ['persona.md', 'PERSONA.md', 'persona.yml', 'persona.yaml'] as const;

export interface JscPersonaFolder {
  /** The folder name: the persona's key (`jsc-persona:<key>`). */
  key: string;
  dir: string;
  persona: ImportedPersona;
  drafts: ImportedMemoryDraft[];
  skipped: ImportSkip[];
}

function isDir(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function isPersonaFolder(dir: string): boolean {
  return isDir(path.join(dir, 'memory')) || DEFINITION_FILES.some((name) => fs.existsSync(path.join(dir, name)));
}

/** `<dir>` itself when it is a persona folder, else its persona subfolders (sorted, so runs are stable). */
export function findJscPersonaFolders(dir: string): string[] {
  if (!isDir(dir))
    throw new KiokuError('NOT_FOUND', `${dir} is not a folder`, {
      path: dir,
      hint: 'give the persona folder, or the folder that holds persona folders',
    });
  if (isPersonaFolder(dir)) return [dir];
  const found = fs
    .readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => path.join(dir, name))
    .filter((child) => isDir(child) && isPersonaFolder(child));
  if (found.length === 0) {
    throw new KiokuError(
      'NOT_FOUND',
      `no persona-memory folders in ${dir}: none has memory/ (long-term/, short-term.jsonl, inbox/) or a persona.md`,
      {
        path: dir,
        hint: 'point --from jsc-persona at one persona folder or at the folder that holds them',
      },
    );
  }
  return found;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value.trim() : String(value).trim();

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : Number.parseFloat(text(value));
  return Number.isFinite(n) ? n : undefined;
}

function readDefinition(dir: string, key: string): ImportedPersona {
  const persona: ImportedPersona = {
    sourceKey: `jsc-persona:${key}`,
    sourcePath: dir,
    name: '',
    prefixHints: [key],
    emoji: '',
    aliases: [],
    nature: '',
    vibe: '',
    source: '',
    relationship: '',
    preamble: '',
    extraSections: [],
    notes: [],
  };
  const file = DEFINITION_FILES.map((name) => path.join(dir, name)).find((candidate) => fs.existsSync(candidate));
  if (!file) {
    persona.notes.push(`no ${DEFINITION_FILES.join(' / ')} in ${dir}: only the memories are imported`);
    return persona;
  }
  const raw = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  let data: Record<string, unknown>;
  let body = '';
  try {
    if (file.endsWith('.md')) {
      const parsed = parseFrontmatter(raw);
      data = parsed.data;
      body = parsed.body;
    } else {
      const loaded = loadYamlGuarded(raw);
      data = loaded && typeof loaded === 'object' && !Array.isArray(loaded) ? (loaded as Record<string, unknown>) : {};
    }
  } catch (error) {
    // Named, not "unexpected": a persona file with an anchor (issue 14) or broken YAML is the file's fault.
    throw new KiokuError('INVALID_FILE', `${file} cannot be read: ${(error as Error).message}`, {
      path: file,
      hint: 'fix the file (or remove it) and import again',
    });
  }
  const sections = readPersonaMarkdown(body);
  persona.name = text(data.name) || sections.title?.trim() || key;
  persona.prefixHints = [text(data.id), key, persona.name].filter(Boolean);
  persona.emoji = text(data.emoji) || sections.signature.split('\n')[0]!.trim();
  persona.aliases = toStringList(data.aliases);
  persona.nature = text(data.nature) || sections.nature || text(data.description) || sections.preamble;
  persona.vibe = text(data.vibe) || sections.vibe || text(data.tone);
  persona.source = text(data.source) || sections.source;
  persona.relationship = text(data.relationship) || sections.relationship;
  // The preamble is the nature when nothing else said what the persona is; then it is not repeated.
  persona.preamble = persona.nature === sections.preamble ? '' : sections.preamble;
  persona.extraSections = sections.extra.map((section) => ({ ...section, origin: 'soul' as const }));
  if (!persona.nature)
    persona.notes.push(`${path.basename(file)} says nothing about what the persona is (nature): only the memories are imported`);
  return persona;
}

function mtimeIso(file: string): string {
  return formatLocalIso(fs.statSync(file).mtime);
}

/** Frontmatter keys turned into Kioku fields (MEM-2, PM-2); every other key is kept as written. */
const LONG_TERM_MAPPED = new Set([
  'topics',
  'first_seen',
  'last_seen',
  'recall_count',
  'strength',
  'id',
  'category',
  'summary',
  'tags',
  'priority',
  'memory_type',
  'created',
  'updated',
  'hits',
  'last_replayed',
  'links',
  'relevance',
  'cues',
]);

function readLongTerm(folder: JscPersonaFolder, file: string): void {
  const rel = path.relative(folder.dir, file).split(path.sep).join('/');
  const source = `${folder.key}/${rel}`;
  let parsed;
  try {
    parsed = parseFrontmatter(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    folder.skipped.push({ source, reason: `cannot be read: ${(error as Error).message}` });
    return;
  }
  const { data } = parsed;
  const body = parsed.body.replace(/^(?:\r?\n)+/, '').replace(/\s+$/, '');
  if (!body.trim() && !text(data.title)) {
    folder.skipped.push({ source, reason: 'empty memory (no text)' });
    return;
  }
  const salience = numberOf(data.salience);
  const mapped = mapLongTermType(text(data.type), salience, Boolean(text(data.emotion)));
  // The id takes the source's own date only: a file's mtime changes when it is copied or touched.
  const firstSeen = text(data.first_seen);
  const created = firstSeen || mtimeIso(file);
  const hits = Math.max(0, Math.round(numberOf(data.recall_count) ?? 0));
  const strength = numberOf(data.strength);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!LONG_TERM_MAPPED.has(key)) extra[key] = value;
  folder.drafts.push({
    id: importedMemoryId('jsc', folder.key, rel, body, firstSeen),
    source,
    importedFrom: `jsc-persona:${source}`,
    category: mapped.category,
    memory_type: mapped.memory_type,
    body,
    summary: gistOf(body) || text(data.title),
    tags: toStringList(data.topics ?? data.tags),
    priority: mapped.priority,
    relevance: mapped.relevance,
    created,
    updated: text(data.last_seen) || created,
    // PM-2: touchRecall() sets last_seen on every recall, so it is the last replay when there was one.
    last_replayed: hits > 0 ? text(data.last_seen) : '',
    hits,
    strength: strength === undefined ? undefined : Math.max(0, Math.min(100, Math.round(strength))),
    extra,
  });
}

const LINE_TEXT_KEYS = ['text', 'content', 'summary', 'gist', 'note'] as const;
const LINE_TIME_KEYS = ['ts', 'time', 'timestamp', 'at', 'created', 'created_at'] as const;
const LINE_MAPPED = new Set<string>([
  ...LINE_TEXT_KEYS,
  ...LINE_TIME_KEYS,
  'topics',
  'tags',
  'salience',
  'id',
  'category',
  'priority',
  'memory_type',
]);

/** One JSONL file of short-term memories or room notes → inbox drafts (PM-3, persona-memory step 6: digest the inbox). */
function readJsonl(folder: JscPersonaFolder, file: string, room: string | undefined): void {
  const rel = path.relative(folder.dir, file).split(path.sep).join('/');
  const fallbackTime = mtimeIso(file);
  const lines = fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const source = `${folder.key}/${rel}#L${i + 1}`;
    let record: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(line);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      record = value as Record<string, unknown>;
    } catch {
      folder.skipped.push({ source, reason: 'not a JSON object (a broken line); left out' });
      return;
    }
    const body = LINE_TEXT_KEYS.map((key) => record[key]).find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    );
    if (!body) {
      folder.skipped.push({ source, reason: 'no text' });
      return;
    }
    // PM-3: a judged line was either promoted (its long-term file is imported) or deliberately not kept.
    if (record.promoted_to !== undefined && record.promoted_to !== null) {
      folder.skipped.push({ source, reason: `already consolidated into long-term memory "${text(record.promoted_to)}" (promoted_to)` });
      return;
    }
    if (text(record.reviewed_at)) {
      folder.skipped.push({ source, reason: 'judged and not kept by persona-memory (reviewed_at)' });
      return;
    }
    const ownTime = LINE_TIME_KEYS.map((key) => text(record[key])).find(Boolean) ?? '';
    const time = ownTime || fallbackTime;
    const extra: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) if (!LINE_MAPPED.has(key)) extra[key] = value;
    if (room) extra.room = room;
    const hasEmotion = record.emotion !== undefined && record.emotion !== null && text(record.emotion) !== '';
    folder.drafts.push({
      id: importedMemoryId('jsc', folder.key, rel, `${ownTime}\n${body}`, ownTime),
      source,
      importedFrom: `jsc-persona:${source}`,
      category: 'inbox',
      memory_type: 'episodic',
      body,
      tags: toStringList(record.topics ?? record.tags),
      priority: priorityFromSalience(numberOf(record.salience)),
      relevance: hasEmotion ? ['emotional'] : [],
      created: time,
      updated: time,
      last_replayed: '',
      hits: 0,
      extra,
    });
  });
}

function filesIn(dir: string, pattern: RegExp): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Everything one persona folder holds that the importer takes, plus what it leaves out and why. */
export function readJscPersonaFolder(dir: string): JscPersonaFolder {
  const key = path.basename(path.resolve(dir));
  const folder: JscPersonaFolder = { key, dir, persona: readDefinition(dir, key), drafts: [], skipped: [] };
  for (const file of filesIn(path.join(dir, 'memory', 'long-term'), /\.md$/)) readLongTerm(folder, file);
  const shortTerm = path.join(dir, 'memory', 'short-term.jsonl');
  if (fs.existsSync(shortTerm)) readJsonl(folder, shortTerm, undefined);
  for (const file of filesIn(path.join(dir, 'memory', 'inbox'), /^room-.*\.jsonl$/)) readJsonl(folder, file, path.basename(file, '.jsonl'));
  const notImported: [string, string][] = [
    ['memory/INDEX.md', 'generated index; Kioku keeps its own (`kioku memory reindex`)'],
    ['mindmap', "mind maps are drawn from the memories' tags (`kioku memory mindmap`)"],
    ['journal', 'raw transcript, kept only to look back on: not memories'],
  ];
  for (const [rel, reason] of notImported) {
    if (fs.existsSync(path.join(dir, rel))) folder.skipped.push({ source: `${key}/${rel}`, reason: `not imported: ${reason}` });
  }
  return folder;
}
