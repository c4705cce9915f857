import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import type { RoleDefinition } from './role-definition.js';

/**
 * Role definitions as last parsed, kept between processes (issue 17, X-PERF): a hook without the
 * daemon reads its role and every other one (the peers block), and parsing their YAML and
 * Markdown was about 2 ms of each SessionStart and call by name. An entry is used only for the
 * very texts it was parsed from, by the very code that parsed it (`code`: the running bundle's
 * stamp), so it gives what parsing gives. A cache: missing, garbled or another code's, it is
 * simply not used, and the next parse writes it anew.
 * Design notes: docs/design-notes.md, "main/core/store/roles/parsed-roles-file.ts".
 */
const FORMAT = 'kioku-parsed-roles/1';
/** A role file is a few KB; far more than any number of roles takes. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

interface Entry {
  id: string;
  identity: string;
  soul: string;
  definition: RoleDefinition;
}

interface StoredParses {
  format: string;
  code: string;
  /** By the identity file's path. */
  entries: Record<string, Entry>;
}

export interface RoleParseStore {
  /** The definition parsed from exactly these texts, or undefined. */
  get(id: string, identity: { path: string; text: string }, soul: { text: string }): RoleDefinition | undefined;
  /** Keep a fresh parse; written at once (best effort, never throws). */
  put(id: string, identity: { path: string; text: string }, soul: { text: string }, definition: RoleDefinition): void;
}

export function parsedRolesFile(file: string, code: string): RoleParseStore {
  let stored: StoredParses | undefined;
  const read = (): StoredParses => (stored ??= readStored(file, code) ?? { format: FORMAT, code, entries: {} });
  return {
    get(id, identity, soul) {
      const entry = read().entries[identity.path];
      if (!entry || entry.id !== id || entry.identity !== identity.text || entry.soul !== soul.text) return undefined;
      return entry.definition;
    },
    put(id, identity, soul, definition) {
      // Only what JSON gives back as it was (JSON_SCHEMA's .nan would not be): else it is parsed each time.
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(definition)), definition)) return;
      const parses = read();
      parses.entries[identity.path] = { id, identity: identity.text, soul: soul.text, definition };
      try {
        writeFileAtomicSync(file, JSON.stringify(parses), { durable: false });
      } catch {
        /* a cache: the next process parses again */
      }
    },
  };
}

function readStored(file: string, code: string): StoredParses | undefined {
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat || !stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!isStoredParses(value) || value.format !== FORMAT || value.code !== code) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** The stored shape, down to each definition's fields: a hand-made file must not reach a load. */
function isStoredParses(value: unknown): value is StoredParses {
  if (!isRecord(value) || !isString(value.format) || !isString(value.code) || !isRecord(value.entries)) return false;
  return Object.values(value.entries).every(
    (entry) =>
      isRecord(entry) && isString(entry.id) && isString(entry.identity) && isString(entry.soul) && isDefinition(entry.definition, entry.id),
  );
}

const TEXT_FIELDS = ['name', 'emoji', 'created', 'updated', 'preamble', 'source', 'relationship', 'signature', 'nature', 'vibe'] as const;

function isDefinition(value: unknown, id: string): value is RoleDefinition {
  if (!isRecord(value) || value.id !== id || !TEXT_FIELDS.every((field) => isString(value[field]))) return false;
  const { aliases, extraSections, format, files, headings, extraFields, hadSharedBlock } = value;
  return (
    Array.isArray(aliases) &&
    aliases.every(isString) &&
    Array.isArray(extraSections) &&
    extraSections.every(
      (section) =>
        isRecord(section) &&
        isString(section.heading) &&
        isString(section.body) &&
        (section.origin === 'identity' || section.origin === 'soul'),
    ) &&
    (format === 'split' || format === 'legacy') &&
    Array.isArray(files) &&
    files.every(isString) &&
    isRecord(headings) &&
    Object.values(headings).every(isString) &&
    isRecord(extraFields) &&
    typeof hadSharedBlock === 'boolean'
  );
}
