import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { loadYamlGuarded } from '../../platform/frontmatter/guarded-yaml.js';
import { toStringList } from '../../store/memory/memory-file.js';
import type { RoleExtraSection } from '../../store/roles/role-definition.js';
import type { ImportedPersona } from './import-role.js';
import type { ImportSkip } from './import-types.js';
import { readPersonaMarkdown } from './persona-markdown.js';

/**
 * The notes skill (dsh-persona-memory) `$DSH_HOME`, read-only.
 * Design notes: docs/design-notes.md, "main/core/integrations/import/dsh-reader.ts".
 */
export interface DshHome {
  dir: string;
  personas: ImportedPersona[];
  factsFile: string | undefined;
  journalFile: string | undefined;
  skipped: ImportSkip[];
}

function isDir(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value).trim());

function readPersonaYml(file: string): Record<string, unknown> {
  const raw = readIfExists(file);
  if (raw === undefined) return {};
  let loaded: unknown;
  try {
    loaded = loadYamlGuarded(raw);
  } catch (error) {
    throw new KiokuError('INVALID_FILE', `${file} is not valid YAML: ${(error as Error).message}`, {
      path: file,
      hint: 'fix the file in DSH (or by hand) and import again',
    });
  }
  return loaded && typeof loaded === 'object' && !Array.isArray(loaded) ? (loaded as Record<string, unknown>) : {};
}

export const USER_SECTION_HEADING = '使用者（user）';

function readDshPersona(dir: string, id: string): ImportedPersona {
  const meta = readPersonaYml(path.join(dir, 'persona.yml'));
  const soulText = readIfExists(path.join(dir, 'SOUL.md')) ?? '';
  const userText = readIfExists(path.join(dir, 'USER.md'));
  const soul = readPersonaMarkdown(soulText);
  const name = text(meta.name) || soul.title?.trim() || id;
  const description = text(meta.description);
  const notes: string[] = [];
  let nature = soul.nature || soul.preamble;
  let preamble = description;
  if (!nature && description) {
    nature = description;
    preamble = '';
    notes.push("SOUL.md has no nature text: the nature is persona.yml's description");
  }
  const extraSections: RoleExtraSection[] = [];
  // Text before SOUL.md's first `##` was the nature only when there was no nature section.
  const looseSoul = [soul.title && soul.title.trim() !== name ? `# ${soul.title}` : '', soul.nature ? soul.preamble : '']
    .filter(Boolean)
    .join('\n\n');
  if (looseSoul) extraSections.push({ heading: '', body: looseSoul, origin: 'soul' });
  extraSections.push(...soul.extra.map((section) => ({ ...section, origin: 'soul' as const })));
  if (userText?.trim()) extraSections.push({ heading: USER_SECTION_HEADING, body: userText.trim(), origin: 'identity' });
  if (!soul.vibe) notes.push('SOUL.md has no 氛圍/語氣 (vibe) section: the vibe says so instead of inventing a tone');
  return {
    sourceKey: `dsh:${id}`,
    sourcePath: dir,
    name,
    prefixHints: [id, name],
    emoji: text(meta.emoji),
    aliases: toStringList(meta.aliases),
    nature,
    vibe: soul.vibe,
    source: soul.source,
    relationship: soul.relationship,
    preamble,
    extraSections,
    notes,
  };
}

export function readDshHome(dir: string): DshHome {
  const personasDir = path.join(dir, 'personas');
  const memoryDir = path.join(dir, 'memory');
  if (!isDir(personasDir) && !isDir(memoryDir)) {
    throw new KiokuError('NOT_FOUND', `${dir} does not look like a DSH_HOME: it has neither personas/ nor memory/`, {
      path: dir,
      hint: 'give the DSH home folder (the one holding personas/ and memory/, usually ~/.dsh)',
    });
  }
  const home: DshHome = { dir, personas: [], factsFile: undefined, journalFile: undefined, skipped: [] };
  const entries = isDir(personasDir)
    ? fs
        .readdirSync(personasDir)
        .filter((name) => !name.startsWith('.'))
        .sort()
    : [];
  for (const name of entries) {
    const personaDir = path.join(personasDir, name);
    if (!isDir(personaDir)) {
      home.skipped.push({ source: `personas/${name}`, reason: 'not imported: not a persona folder' });
      continue;
    }
    if (!fs.existsSync(path.join(personaDir, 'persona.yml')) && !fs.existsSync(path.join(personaDir, 'SOUL.md'))) {
      home.skipped.push({ source: `personas/${name}`, reason: 'not imported: no persona.yml or SOUL.md (not a persona)' });
      continue;
    }
    home.personas.push(readDshPersona(personaDir, name));
  }
  const facts = path.join(memoryDir, 'FACT.md');
  if (fs.existsSync(facts)) home.factsFile = facts;
  const journal = path.join(memoryDir, 'JOURNAL.jsonl');
  if (fs.existsSync(journal)) home.journalFile = journal;
  if (isDir(path.join(memoryDir, 'snapshots')))
    home.skipped.push({ source: 'memory/snapshots', reason: 'not imported: per-session caches, rebuilt by each session' });
  return home;
}
