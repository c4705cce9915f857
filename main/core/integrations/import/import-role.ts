import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { languageOfText, say } from '../../platform/text/context-language.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import type { RoleDefinition, RoleExtraSection } from '../../store/roles/role-definition.js';
import { createRole, type CreatedRole } from '../../store/roles/role-editor.js';
import { prefixFromName } from '../../store/roles/role-next-id.js';
import { roleFilePaths } from '../../store/roles/role-repository.js';
import { IMPORTED_FROM_KEY, findRoleByMemoryIds, findRoleBySourceKey, mintRoleId } from './import-ids.js';

/**
 * A persona from another tool, mapped onto Kioku's role fields by its importer (the tables are
 * in jsc-persona-reader.ts and dsh-reader.ts). Empty strings mean "the source does not say":
 * nothing here is ever made up (ROLE-5: when unsure, ask only for the missing fields; never fill them in).
 */
export interface ImportedPersona {
  /** Recorded in the role as `imported_from`, e.g. `dsh:lumi`, `jsc-persona:lumi`. */
  sourceKey: string;
  sourcePath: string;
  name: string;
  /** Words to make the ID prefix from, best first (persona id, folder name, display name). */
  prefixHints: string[];
  emoji: string;
  aliases: string[];
  nature: string;
  vibe: string;
  source: string;
  relationship: string;
  preamble: string;
  extraSections: RoleExtraSection[];
  /** What the reader had to fall back on, for the report. */
  notes: string[];
}

/** Used when no hint spells an English prefix (a CJK-only name): never a guessed word. */
export const FALLBACK_PREFIX = 'PERSONA';

export type ImportedRolePlan =
  | { action: 'exists'; id: string; persona: ImportedPersona }
  | { action: 'create'; id: string; persona: ImportedPersona; role: RoleDefinition }
  | { action: 'memory-only'; id: string; persona: ImportedPersona; existing: boolean };

/** Redaction and the script guard (PRIV-1/2) over every text of the persona. */
export async function cleanPersona(persona: ImportedPersona): Promise<{ persona: ImportedPersona; cleaned: boolean; warnings: string[] }> {
  const warnings = new Set<string>();
  let cleaned = false;
  const clean = async (field: string, text: string) => {
    if (!text) return text;
    const result = await cleanForStorage(text);
    for (const warning of result.warnings) warnings.add(`${persona.sourceKey} ${field}: ${warning}`);
    cleaned ||= result.text !== text;
    return result.text;
  };
  const out: ImportedPersona = {
    ...persona,
    name: await clean('name', persona.name),
    aliases: await Promise.all(persona.aliases.map((alias) => clean('aliases', alias))),
    nature: await clean('nature', persona.nature),
    vibe: await clean('vibe', persona.vibe),
    source: await clean('source', persona.source),
    relationship: await clean('relationship', persona.relationship),
    preamble: await clean('preamble', persona.preamble),
    extraSections: [],
  };
  for (const section of persona.extraSections) {
    out.extraSections.push({
      ...section,
      heading: await clean('heading', section.heading),
      body: await clean(section.heading || 'text', section.body),
    });
  }
  return { persona: out, cleaned, warnings: [...warnings] };
}

function prefixFor(persona: ImportedPersona): string {
  for (const hint of persona.prefixHints) {
    const prefix = prefixFromName(hint);
    if (prefix) return prefix;
  }
  return FALLBACK_PREFIX;
}

/**
 * The vibe section is required (ROLE-1). A source without one gets a sentence that says so and
 * where to look, instead of an invented tone; the user fills it in with `kioku role new --id`.
 */
function missingVibeNote(persona: ImportedPersona, id: string): string {
  const language = languageOfText(`${persona.name}\n${persona.nature}`, 'en');
  return say(
    language,
    `（匯入的來源沒有獨立的語氣段落，Kioku 不代為編寫；語氣與風格以上方的本質與原文為準。可用 \`kioku role new --id ${id} --vibe "…"\` 補上。）`,
    `(The imported source has no separate tone section and Kioku does not make one up; the tone follows the nature above and the original text. Fill it in with \`kioku role new --id ${id} --vibe "…"\`.)`,
  );
}

function roleDefinitionFor(config: KiokuConfig, persona: ImportedPersona, id: string): RoleDefinition {
  const now = formatLocalIso(config.clock.now());
  const paths = roleFilePaths(config.paths.roleHome, id);
  return {
    id,
    name: persona.name,
    emoji: persona.emoji,
    aliases: persona.aliases,
    created: now,
    updated: now,
    preamble: persona.preamble,
    source: persona.source,
    relationship: persona.relationship,
    signature: persona.emoji,
    nature: persona.nature,
    vibe: persona.vibe || missingVibeNote(persona, id),
    extraSections: persona.extraSections,
    format: 'split',
    files: [paths.identity, paths.soul],
    headings: {},
    extraFields: { [IMPORTED_FROM_KEY]: persona.sourceKey },
    hadSharedBlock: false,
  };
}

/**
 * Which role a persona becomes: the one imported from the same source before (identity
 * frontmatter, else memory ids already in a folder), or a new ID minted like `role new` does.
 * Reads only. `reserved` collects the IDs this run hands out.
 */
export function planImportedRole(
  config: KiokuConfig,
  persona: ImportedPersona,
  memoryIds: readonly string[],
  reserved: Set<string>,
): ImportedRolePlan {
  const known = findRoleBySourceKey(config.paths.roleHome, persona.sourceKey);
  if (known) return { action: 'exists', id: known, persona };
  const folder = findRoleByMemoryIds(config.paths.memoryHome, memoryIds);
  if (folder) return { action: 'memory-only', id: folder, persona, existing: true };
  const id = mintRoleId(config.paths, prefixFor(persona), reserved);
  reserved.add(id);
  if (!persona.name.trim() || !persona.nature.trim()) return { action: 'memory-only', id, persona, existing: false };
  return { action: 'create', id, persona, role: roleDefinitionFor(config, persona, id) };
}

/** Write the role files (and `.active` when there is none), through role-editor's createRole. */
export function applyImportedRole(config: KiokuConfig, plan: Extract<ImportedRolePlan, { action: 'create' }>): CreatedRole {
  return createRole(config, { kind: 'create', role: plan.role, paths: roleFilePaths(config.paths.roleHome, plan.id) });
}
