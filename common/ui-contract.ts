/**
 * The one contract between the UI and main: every channel declared once, with the zod schema of its
 * request and the type of its response.
 * Design notes: docs/design-notes.md, "common/ui-contract.ts".
 */
import * as z from 'zod/mini';
import type { KiokuErrorCode } from './errors.js';
import type { UiErrorReason, UiErrorValues } from './ui-error-reasons.js';
import { ROLE_ID_PATTERN, ROLE_PREFIX_PATTERN } from './role-id.js';
import type {
  ActiveRoleSet,
  AppState,
  BondList,
  MemoryDetail,
  MemoryList,
  MemorySearchResult,
  MemoryTimeStats,
  RoleArchived,
  RoleChangePlan,
  RoleCreated,
  RoleDetail,
  RoleList,
  RoleUpdated,
  SleepHistory,
  SleepRunView,
  EmojiGridPreview,
  EmojiSavePlan,
  EmojiSheetSaved,
  EmojiSheetView,
} from './ui-contract-types.js';
import type {
  DiagnoseView,
  NotesSaved,
  FactsView,
  JournalAppended,
  JournalSearchView,
  JournalTags,
  KnownProjects,
  MindmapView,
  ProjectMemoryView,
  SettingsView,
  StatusReportView,
} from './ui-contract-notes-types.js';
import type { ArchivedRoleList, ArchivePurged, RoleAvatars, RoleRestored } from './ui-contract-manager-types.js';
import type { DigestDetail, SessionPreviewView } from './ui-contract-insight-types.js';
import { EMOJI_SHEET_LIMITS, emojiGridSchema } from './emoji-grid.js';
import { ALL_CATEGORIES, CATEGORIES, MEMORY_TYPES } from './memory.js';
import { MEMORY_ACTION_CHANNELS, type MemoryActionResponses } from './ui-contract-memory-actions.js';

export * from './ui-contract-types.js';
export * from './ui-contract-notes-types.js';
export * from './ui-error-reasons.js';
export * from './ui-contract-manager-types.js';
export * from './ui-contract-memory-actions.js';
export * from './ui-contract-insight-types.js';

/** KiokuError codes pass through unchanged; the rest belong to the transport. */
export type UiErrorCode = KiokuErrorCode | 'BAD_REQUEST' | 'UNKNOWN_CHANNEL' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'INTERNAL' | 'UNAVAILABLE';

export interface UiError {
  code: UiErrorCode;
  /** Names what was wrong, with the value or file. */
  message: string;
  /** What to do about it, when there is something. */
  hint?: string;
  /** The UI's own error code: the renderer shows its text for it, not `message` (ui-error-reasons.ts). */
  reason?: UiErrorReason;
  reasonValues?: UiErrorValues;
  /** The request field at fault (e.g. `name`, `id`, `text`, `project`). */
  field?: string;
}

export type UiResult<T> = { ok: true; value: T } | { ok: false; error: UiError };

export function uiOk<T>(value: T): UiResult<T> {
  return { ok: true, value };
}

export function uiErr<T = never>(code: UiErrorCode, message: string, hint?: string): UiResult<T> {
  return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}

// ---- request schemas -------------------------------------------------------------------------

const roleId = z.string().check(z.regex(ROLE_ID_PATTERN, 'a role ID is an uppercase prefix plus two digits, e.g. ENGINEER01'));
/** One line, for name and emoji (role-editor.ts refuses line breaks in them too). */
const oneLine = (max: number) => z.string().check(z.maxLength(max), z.regex(/^[^\r\n]*$/, 'must be one line'));
const longText = z.string().check(z.maxLength(20_000));

/** The editable fields of a role (ROLE-5); a field left out keeps its old value on update. */
const roleFields = {
  name: z.optional(oneLine(200)),
  nature: z.optional(longText),
  vibe: z.optional(longText),
  emoji: z.optional(oneLine(64)),
  aliases: z.optional(z.array(oneLine(200)).check(z.maxLength(50))),
  source: z.optional(longText),
  relationship: z.optional(longText),
};

const newRoleInput = z.strictObject({
  ...roleFields,
  /** Optional: without it the next free ID for the prefix (or one made from the name) is used. */
  id: z.optional(roleId),
  prefix: z.optional(
    z.string().check(z.regex(ROLE_PREFIX_PATTERN, 'a prefix is 4–16 uppercase letters or digits starting with a letter, e.g. ENGINEER')),
  ),
});

const roleEditInput = z.strictObject({ ...roleFields, id: roleId });

const empty = z.strictObject({});
/** An archive under `.archive/`, by folder name as roles.archived gave it (never a path). */
const archiveFolder = z
  .string()
  .check(z.regex(/^[A-Z][A-Z0-9]{0,15}[0-9]{2}-\d{8}-\d{6}(?:-\d{1,4})?$/, 'an archive folder is named like ENGINEER01-20260203-040506'));
const byId = z.strictObject({ id: roleId });

/** A memory's ID is looked up among the role's memories, never turned into a path; still one plain name. */
const memoryId = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[^/\\\0\r\n]+$/, 'a memory ID is one name without slashes'));
const localDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is yyyy-MM-dd'));
const wholeNumber = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));

/** A stored emoji sheet of a role, by file name (main checks it is that role's; never a path). */
const emojiSheetName = z
  .string()
  .check(
    z.regex(/^[a-z][a-z0-9]{0,15}[0-9]{2}-emotions-sheet(?:-[0-9]{1,4})?\.png$/, 'a sheet is named like engineer01-emotions-sheet.png'),
  );
/** The image bytes of an upload, base64, at most EMOJI_SHEET_LIMITS.maxBytes once decoded. */
const EMOJI_UPLOAD_BASE64_MAX = Math.ceil(EMOJI_SHEET_LIMITS.maxBytes / 3) * 4;
const base64Image = z
  .string()
  .check(
    z.maxLength(EMOJI_UPLOAD_BASE64_MAX, 'the image is over the size limit'),
    z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'the image must be base64'),
  );
const emojiSheetAt = { id: roleId, sheet: emojiSheetName, grid: emojiGridSchema };

/** The facts, project-memory, journal and settings channels (DSH-1/2/3, APP-4). */
const revision = z.string().check(z.regex(/^[0-9a-f]{16}$/, 'a revision is what the read gave'));
/** Long enough to carry a text over the limits, so main refuses it with LIMIT_EXCEEDED and says why. */
const dshText = z.string().check(z.maxLength(200_000));
const projectPath = z.string().check(z.minLength(1), z.maxLength(4096), z.regex(/^[^\0\r\n]+$/, 'a folder path is one line'));
const journalTag = oneLine(100);
const settingName = z.string().check(z.regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'a setting name is like ROLE_LOAD_LIMIT'));
const settingValue = z.union([z.string().check(z.maxLength(4096)), z.number(), z.boolean(), z.null()]);

/** Every channel with its request schema. Adding a channel: see docs/ui.md. */
export const UI_CHANNELS = {
  /** DSH-8: roles, the active role, the sleep state and the daemon, in one answer. */
  'state.get': empty,
  'roles.list': empty,
  'roles.get': byId,
  /** Create a new role; a role that already exists (by ID or display name) is refused: edit it instead. */
  'roles.create': z.strictObject({ input: newRoleInput }),
  /** ROLE-5: the old/new table and a confirm token; writes nothing. */
  'roles.planChange': z.strictObject({ input: roleEditInput }),
  /** Apply exactly the planned change: the same input and the token `roles.planChange` gave. */
  'roles.applyChange': z.strictObject({
    input: roleEditInput,
    token: z.string().check(z.regex(/^[0-9a-fA-F]{6,64}$/, 'a confirm token is hexadecimal')),
  }),
  /** ROLE-8: delete = archive; the active role is refused. */
  'roles.archive': byId,
  'roles.setActive': byId,
  /** Archived roles (what roles.archive moved to `.archive/`), newest first. */
  'roles.archived': empty,
  /** Move an archived role back; refused when a role with its ID exists. */
  'roles.restore': z.strictObject({ folder: archiveFolder }),
  /** Delete an archive for good: `confirmId` is what the user typed and must be the role's ID. */
  'roles.purge': z.strictObject({ folder: archiveFolder, confirmId: z.string().check(z.maxLength(100)) }),
  /** Persist the order of the role list (`<role home>/.order`). */
  'roles.reorder': z.strictObject({ order: z.array(roleId).check(z.maxLength(10_000)) }),
  /** ROLE-10: the role's newest emoji sheet (or the one named), its grid and cut images. */
  'emoji.get': z.strictObject({ id: roleId, sheet: z.optional(emojiSheetName) }),
  /** Every role's emoji-sheet picture, where it has a saved one. */
  'emoji.avatars': empty,
  /** Check a picked image (PNG/JPEG/WebP) and hold it in memory as the role's next sheet version; written only by emoji.saveSheet. */
  'emoji.importSheet': z.strictObject({ id: roleId, fileName: oneLine(255), data: base64Image }),
  /** The nine cells as main would cut them, shrunk to `size` pixels; writes nothing. */
  'emoji.previewGrid': z.strictObject({ ...emojiSheetAt, size: z.optional(wholeNumber(16, 256)) }),
  /** ROLE-5: the old/new 簽名 emoji section and a confirm token; writes nothing. */
  'emoji.planSave': z.strictObject(emojiSheetAt),
  /** Cut the nine cells, save the grid and write the section back: the same grid and planSave's token. */
  'emoji.saveSheet': z.strictObject({
    ...emojiSheetAt,
    token: z.string().check(z.regex(/^[0-9a-fA-F]{6,64}$/, 'a confirm token is hexadecimal')),
  }),
  /** The timeline (APP-2): every memory and inbox item, newest first, filtered, one page at a time. */
  'memories.list': z.strictObject({
    role: z.optional(roleId),
    categories: z.optional(z.array(z.enum(['inbox', ...CATEGORIES] as const)).check(z.maxLength(ALL_CATEGORIES.length))),
    types: z.optional(z.array(z.enum(MEMORY_TYPES)).check(z.maxLength(MEMORY_TYPES.length))),
    clarity: z.optional(z.array(z.enum(['clear', 'faded', 'fuzzy'])).check(z.maxLength(3))),
    /** Local dates, both included. */
    from: z.optional(localDate),
    to: z.optional(localDate),
    offset: wholeNumber(0, 10_000_000),
    limit: wholeNumber(1, 1000),
  }),
  /** Full-text search (X-SEARCH: Chinese without spaces); read-only, unlike a role's recall. */
  'memories.search': z.strictObject({
    query: z.string().check(z.minLength(1), z.maxLength(500)),
    role: z.optional(roleId),
    limit: z.optional(wholeNumber(1, 500)),
  }),
  'memories.get': z.strictObject({ role: roleId, id: memoryId }),
  'memories.stats': z.strictObject({ role: z.optional(roleId) }),
  ...MEMORY_ACTION_CHANNELS,
  /** MEM-10: DIGESTS.md, newest first. */
  'sleep.history': z.strictObject({ role: roleId, count: wholeNumber(1, 100) }),
  /** Consolidate now (what `kioku sleep --force [--role ID]` does), on a worker thread. */
  'sleep.run': z.strictObject({ role: z.optional(roleId), force: z.literal(true) }),
  /** MEM-7: BONDS.md, newest first. */
  'bonds.list': z.strictObject({ role: roleId, count: wholeNumber(1, 500) }),
  /** DSH-1: FACT.md with its usage against both limits. */
  'facts.read': empty,
  /** DSH-1: replace FACT.md; refused (file unchanged) over 100 lines or 8000 bytes, or when it changed after `revision`. */
  'facts.update': z.strictObject({ text: dshText, revision }),
  /** Project folders the assistants were seen in, for the project picker. */
  'projectMemory.projects': empty,
  /** DSH-2: `<project>/MEMORY.md` (a full folder path or ~/…); a missing file is reported, never created. */
  'projectMemory.read': z.strictObject({ project: projectPath }),
  /** DSH-2: replace MEMORY.md (8000 characters at most); a missing one is created only with `create: true`. */
  'projectMemory.update': z.strictObject({ project: projectPath, text: dshText, revision, create: z.optional(z.boolean()) }),
  /** DSH-3: append one entry to JOURNAL.jsonl. */
  'journal.append': z.strictObject({
    text: z.string().check(z.minLength(1), z.maxLength(100_000)),
    tags: z.optional(z.array(journalTag).check(z.maxLength(50))),
  }),
  /** DSH-3: substring search (Chinese without spaces) and/or one tag, newest first. */
  'journal.search': z.strictObject({
    query: z.optional(z.string().check(z.maxLength(500))),
    tag: z.optional(journalTag),
    limit: wholeNumber(1, 1000),
  }),
  /** DSH-3: every tag with its entry count. */
  'journal.tags': empty,
  /** OPS-1: `kioku status --json`. */
  'status.get': empty,
  /** OPS-1: the `kioku diagnose` checklist. */
  'status.diagnose': empty,
  /** APP-4: every setting, its value in effect and where that comes from. */
  'settings.get': empty,
  /** APP-4: save settings to settings.json (null: back to the default); environment-set ones are refused. */
  'settings.update': z.strictObject({ values: z.record(settingName, settingValue) }),
  /** PM-5: a role's mind map (nodes, edges and the Mermaid text). */
  'mindmap.get': z.strictObject({ role: roleId }),
  /** "Next session": what SessionStart would inject now for the role in that folder (default: the home folder). */
  'context.preview': z.strictObject({ role: roleId, project: z.optional(projectPath) }),
  /** What one digest's consolidation created, merged, superseded and forgot (`record` as sleep.history gave it). */
  'sleep.digest': z.strictObject({
    role: roleId,
    record: z.string().check(z.regex(/^(?:plan|forgetting):[A-Za-z0-9._-]{1,120}$/, 'a digest record is plan:<id> or forgetting:<id>')),
  }),
} as const;

/** The response type of each channel. */
export interface UiResponses extends MemoryActionResponses {
  'state.get': AppState;
  'roles.list': RoleList;
  'roles.get': RoleDetail;
  'roles.create': RoleCreated;
  'roles.planChange': RoleChangePlan;
  'roles.applyChange': RoleUpdated;
  'roles.archive': RoleArchived;
  'roles.setActive': ActiveRoleSet;
  'roles.archived': ArchivedRoleList;
  'roles.restore': RoleRestored;
  'roles.purge': ArchivePurged;
  'roles.reorder': { order: string[] };
  'emoji.get': EmojiSheetView;
  'emoji.avatars': RoleAvatars;
  'emoji.importSheet': EmojiSheetView;
  'emoji.previewGrid': EmojiGridPreview;
  'emoji.planSave': EmojiSavePlan;
  'emoji.saveSheet': EmojiSheetSaved;
  'memories.list': MemoryList;
  'memories.search': MemorySearchResult;
  'memories.get': MemoryDetail;
  'memories.stats': MemoryTimeStats;
  'sleep.history': SleepHistory;
  'sleep.run': SleepRunView;
  'bonds.list': BondList;
  'facts.read': FactsView;
  'facts.update': NotesSaved<FactsView>;
  'projectMemory.projects': KnownProjects;
  'projectMemory.read': ProjectMemoryView;
  'projectMemory.update': NotesSaved<ProjectMemoryView>;
  'journal.append': JournalAppended;
  'journal.search': JournalSearchView;
  'journal.tags': JournalTags;
  'status.get': StatusReportView;
  'status.diagnose': DiagnoseView;
  'settings.get': SettingsView;
  'settings.update': SettingsView;
  'mindmap.get': MindmapView;
  'context.preview': SessionPreviewView;
  'sleep.digest': DigestDetail;
}

export type UiChannel = keyof typeof UI_CHANNELS;
/** What a caller sends (optional fields may be left out). */
export type UiRequest<C extends UiChannel> = z.input<(typeof UI_CHANNELS)[C]>;
/** What a handler receives, after validation. */
export type UiParsedRequest<C extends UiChannel> = z.output<(typeof UI_CHANNELS)[C]>;
export type UiResponse<C extends UiChannel> = UiResponses[C];

// Both maps must name the same channels: a channel without a response type (or the reverse) is a
// compile error here rather than a runtime surprise.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const channelMapsAgree: SameKeys<typeof UI_CHANNELS, UiResponses> = true;
void channelMapsAgree;

export const UI_CHANNEL_NAMES = Object.keys(UI_CHANNELS) as UiChannel[];

export function isUiChannel(name: string): name is UiChannel {
  return Object.prototype.hasOwnProperty.call(UI_CHANNELS, name);
}

/** Validate a request for a channel. Never throws. */
export function parseUiRequest<C extends UiChannel>(channel: C, body: unknown): UiResult<UiParsedRequest<C>> {
  const result = UI_CHANNELS[channel].safeParse(body ?? {});
  if (result.success) return uiOk(result.data as UiParsedRequest<C>);
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(request)'}: ${issue.message}`)
    .join('; ');
  return uiErr('BAD_REQUEST', `invalid ${channel} request: ${issues}`, 'the UI and the app may be different versions; reload the page');
}

// ---- events (main → UI) --------------------------------------------------------------------

export interface UiEvents {
  /** The app state changed (roles, active role, sleep state); carries the new state whole. */
  'state.changed': AppState;
  /** Memories of these roles changed on disk (a consolidation, a capture, an edit). */
  'memories.changed': { roles: string[] };
  /** Files outside the memory folders changed: FACT.md, JOURNAL.jsonl, a watched MEMORY.md, a role's DIGESTS.md or state.json. */
  'files.changed': FilesChanged;
}

export interface FilesChanged {
  facts: boolean;
  journal: boolean;
  /** Project folders whose MEMORY.md changed. */
  projects: string[];
  /** Roles whose DIGESTS.md or state.json changed. */
  roles: string[];
}

export type UiEventName = keyof UiEvents;
export const UI_EVENT_NAMES: readonly UiEventName[] = ['state.changed', 'memories.changed', 'files.changed'];

export function isUiEventName(name: unknown): name is UiEventName {
  return typeof name === 'string' && (UI_EVENT_NAMES as readonly string[]).includes(name);
}

/** One pushed event, as a WebSocket text frame or an Electron IPC message. */
export interface UiEventMessage<E extends UiEventName = UiEventName> {
  event: E;
  data: UiEvents[E];
}

// ---- the bridge both transports offer ------------------------------------------------------

export type Unsubscribe = () => void;

/**
 * What the renderer sees: Electron's preload exposes exactly this as `window.kioku`; the headless
 * transport implements it over HTTP and a WebSocket.
 */
export interface KiokuBridge {
  invoke<C extends UiChannel>(channel: C, request: UiRequest<C>): Promise<UiResult<UiResponse<C>>>;
  subscribe<E extends UiEventName>(event: E, listener: (data: UiEvents[E]) => void): Unsubscribe;
}

// ---- the HTTP transport's fixed names ------------------------------------------------------

/**
 * Request bodies may be at most 1 MiB, except for these channels (an emoji sheet upload carries
 * an image as base64). The web server reads this; Electron's IPC has no such limit.
 */
export const UI_BODY_LIMITS: Partial<Record<UiChannel, number>> = {
  'emoji.importSheet': EMOJI_UPLOAD_BASE64_MAX + 64 * 1024,
};

/** `POST /api/<channel>` with the request as JSON; `GET /api/state` for DSH-8. */
export const UI_API_PREFIX = '/api/';
export const UI_EVENTS_PATH = '/api/events';
/** The token travels in this header on API calls and as `?token=` on the WebSocket URL. */
export const UI_TOKEN_HEADER = 'x-kioku-token';
