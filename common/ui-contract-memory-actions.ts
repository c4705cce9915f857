import * as z from 'zod/mini';
import { CATEGORIES, type MemoryCategory, type MemoryType } from './memory.js';
import { ROLE_ID_PATTERN } from './role-id.js';

/**
 * Issue 16: what a person does to one memory from the timeline — edit, pin, mark wrong, forget
 * (to archive/forgotten/) and restore — and the Forgotten list. The same core functions as
 * `kioku memory edit|pin|unpin|wrong|forget <id>|restore`. Merged into UI_CHANNELS.
 */
const roleId = z.string().check(z.regex(ROLE_ID_PATTERN, 'a role ID is an uppercase prefix plus two digits, e.g. ENGINEER01'));
const memoryId = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[^/\\\0\r\n]+$/, 'a memory ID is one name without slashes'));
/** An archive in archive/forgotten/, by name without .md.gz; never a path. */
const archiveName = z
  .string()
  .check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9._-]+$/, 'an archive name is letters, digits, dot, dash or underscore'));
const oneLine = (max: number) => z.string().check(z.maxLength(max), z.regex(/^[^\r\n]*$/, 'must be one line'));
const at = { role: roleId, id: memoryId };

export const MEMORY_ACTION_CHANNELS = {
  /** Only the fields given change; text is cleaned like every stored text; `expires: ''` removes it. */
  'memories.edit': z.strictObject({
    ...at,
    changes: z.strictObject({
      summary: z.optional(oneLine(1000)),
      body: z.optional(z.string().check(z.maxLength(200_000))),
      tags: z.optional(z.array(oneLine(100)).check(z.maxLength(50))),
      priority: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(5))),
      category: z.optional(z.enum(['inbox', ...CATEGORIES] as const)),
      expires: z.optional(oneLine(200)),
    }),
  }),
  'memories.pin': z.strictObject({ ...at, pinned: z.boolean() }),
  /** Superseded: kept as history, never loaded as current; a correction becomes a new memory. */
  'memories.markWrong': z.strictObject({ ...at, correction: z.optional(z.string().check(z.maxLength(20_000))) }),
  /** To archive/forgotten/; the answer's `name` is what `memories.restore` takes (the undo). */
  'memories.forget': z.strictObject(at),
  'memories.restore': z.strictObject({ role: roleId, name: archiveName }),
  /** What archive/forgotten/ holds, newest first. */
  'memories.forgotten': z.strictObject({ role: roleId }),
} as const;

export interface MemoryActionDone {
  role: string;
  id: string;
  category: MemoryCategory;
  /** Fields that changed (empty: nothing needed writing). */
  changed: string[];
  /** markWrong with a correction: the new memory's ID. */
  correctionId?: string;
  warnings: string[];
}

export interface MemoryForgottenDone {
  role: string;
  id: string;
  category: MemoryCategory;
  /** The archive's name: pass it to `memories.restore` to undo. */
  name: string;
}

export interface ForgottenMemoryItem {
  name: string;
  id: string;
  role: string;
  category: MemoryCategory;
  memory_type: MemoryType;
  priority: number;
  summary: string;
  body: string;
  tags: string[];
  created: string;
  /** When it was archived (ISO). */
  forgottenAt: string;
}

export interface ForgottenList {
  items: ForgottenMemoryItem[];
  /** How many archives there are (items may be fewer: the newest are listed). */
  total: number;
  unreadable: number;
}

export interface MemoryActionResponses {
  'memories.edit': MemoryActionDone;
  'memories.pin': MemoryActionDone;
  'memories.markWrong': MemoryActionDone;
  'memories.forget': MemoryForgottenDone;
  'memories.restore': MemoryActionDone;
  'memories.forgotten': ForgottenList;
}
