import path from 'node:path';
import type { DialogTurn } from '../../../../common/hook-events.js';
import type { Memory } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Bond } from '../../store/memory/bonds.js';
import type { MemoryState } from '../../store/memory/memory-state.js';
import type { RoleDefinition } from '../../store/roles/role-definition.js';
import { agentsBlock } from './agents-rules.js';
import { bondsBlock } from './bonds-block.js';
import { briefBlock } from './brief-block.js';
import { EMPTY_BLOCK, textBlock, type ContextBlock } from './context-block.js';
import { languageOfRole, say, type ContextLanguage } from '../../platform/text/context-language.js';
import { packParts } from './context-packing.js';
import { memoByList } from './list-memo.js';
import { dialogBlock } from './dialog-block.js';
import { inboxBlockAt, inboxNewestFirst, keepInboxOrder, type OlderInboxCount } from './inbox-block.js';
import { inertInput, inertMemories } from './inert-input.js';
import { loadSpecialMemories } from './load-special-memories.js';
import { fitLongTermMemory, prepareLongTermMemory, type PreparedLongTermMemory } from './memory-block.js';
import { peersBlock, type PeerInfo } from './peers-block.js';
import { consentBlock, greetingBlock, isFirstMeeting, relationshipBlock, sleepyBlock } from './session-notes.js';
import {
  factsBlock,
  factsPointerBlock,
  journalPointerBlock,
  projectMemoryBlock,
  projectMemoryPointerBlock,
  type ProjectMemory,
} from './shared-memory-blocks.js';
import { soulBlock } from './soul-block.js';
import { memoriesForProject, preparedForProject, projectSpecificMemories } from './session-project.js';
import { projectWaitingBlock } from './project-note-block.js';
import { sleepingContext } from './special-contexts.js';
import { shrinkToFit, type Budgets } from './shrink-to-fit.js';

/**
 * The whole SessionStart load (CTX-1…5, CTX-7, CTX-9, DSH-1…3), from data the caller has read.
 * Pure apart from reading the shipped AGENTS text: it is the same code in the daemon and in the
 * hook client's fallback (HOOK-5).
 */
export interface SessionContextInput {
  config: Pick<KiokuConfig, 'settings' | 'paths' | 'clock'>;
  role: RoleDefinition;
  /** Every memory of the role, inbox included (`loadRoleMemories`). */
  memories: readonly (Memory & { path?: string })[];
  /**
   * The same memories without the inbox, when the caller keeps such a list stable between events
   * (the daemon's memory cache): the long-term work is then kept with it (list-memo.ts) while
   * the inbox changes every turn. Gives the same load as leaving it out.
   */
  longTermMemories?: readonly Memory[];
  /** The inbox part of `memories`, likewise (frozen, kept between events); gives the same load. */
  inboxMemories?: readonly Memory[];
  /**
   * With a prepared load from disk, `inboxMemories` may be only the newest of the inbox; the
   * older ones are then counted here for the session's project and moment (prepared-inbox.ts),
   * and `memories` holds those of them read one by one (`loadSpecialMemories`). The caller makes
   * sure the newest hold every item the block shows; gives the same load.
   */
  olderInbox?: OlderInboxCount;
  /**
   * The long-term items prepared ahead for every project (`prepareLongTermMemory` over the whole
   * list, at this moment): a prepared load from disk (prepared-load-file.ts). `memories` may then
   * hold only the inbox and `loadSpecialMemories` of the rest; gives the same load.
   */
  preparedLongTerm?: PreparedLongTermMemory;
  state: MemoryState;
  /** Newest first, as `readBonds` returns them. */
  bonds?: readonly Bond[];
  /** Oldest first, already reduced to user/assistant text (CTX-6). */
  dialog?: readonly DialogTurn[];
  /** `<memory home>/FACT.md` text (DSH-1); main sessions only. */
  facts?: string;
  /** `<cwd>/MEMORY.md` when it exists (DSH-2). */
  projectMemory?: ProjectMemory;
  /**
   * The session's project (git top level of its cwd, issue 12): other projects' project-specific
   * memories are left out of every block. Undefined: a session in no project gets global ones only.
   */
  project?: string;
  /** Entries in JOURNAL.jsonl (DSH-3); the pointer is left out when undefined. */
  journalEntries?: number;
  /** Every role (the current one is skipped); the block appears when there is another. */
  peers?: readonly PeerInfo[];
  /**
   * How many SessionStart commands are registered, each printing one part. When the load does
   * not fit in that many parts of KIOKU_HOOK_OUTPUT_LIMIT, the lowest-value blocks shrink first.
   * Default 1. SOUL and AGENTS are never shrunk: if they alone exceed it, more parts come back,
   * each still within the limit.
   */
  maxParts?: number;
  flags?: {
    /** In the sleep window: no persona at all (CTX-7). */
    sleeping?: boolean;
    /** Default: no activity recorded in state.json yet. */
    firstMeeting?: boolean;
  };
  /** The AGENTS text to use instead of the shipped file (tests). */
  agentsRules?: string;
  resourcesDir?: string;
}

export type OmittedKey = 'memory' | 'inbox' | 'bonds' | 'dialog' | 'facts' | 'projectMemory' | 'peers';

export interface SessionContext {
  /** One text per SessionStart command; none longer than KIOKU_HOOK_OUTPUT_LIMIT. */
  parts: string[];
  /** Items that exist but were left out, per block (a whole file counts as 1). */
  omitted: Record<OmittedKey, number>;
  /**
   * The same load without this session's opening notes (greeting, consent question, sleepy
   * reminder): what `saveSnapshot` should freeze, so that re-injecting it after a compaction
   * does not greet the user again mid-conversation.
   */
  snapshotParts: string[];
  /** What each block took and what it was allowed (the UI's "next session" preview shows it). */
  report: LoadReport;
}

/** One block of the load as assembled: its size, its items, and the budget it had. */
export interface LoadBlockReport {
  name: string;
  chars: number;
  shown: number;
  omitted: number;
  /** Said only in the session's first reply (greeting, consent question…), not in a snapshot. */
  opening: boolean;
  /** The character budget: the setting, what it is set to, and what the load left it after shrinking. */
  budget?: { setting: string; configured: number; effective: number };
  /** FACT.md or MEMORY.md replaced by a one-line pointer; the peers list left out. */
  replaced?: boolean;
}

export interface LoadReport {
  blocks: LoadBlockReport[];
  /** KIOKU_HOOK_OUTPUT_LIMIT and the parts it may use. */
  partLimit: number;
  maxParts: number;
}

/** The blocks with a character budget, and the setting it comes from. */
const BUDGET_SETTINGS = {
  memory: 'ROLE_LOAD_LIMIT',
  inbox: 'ROLE_LOAD_INBOX_LIMIT',
  bonds: 'ROLE_LOAD_BONDS_LIMIT',
  dialog: 'ROLE_LOAD_DIALOG_LIMIT',
} as const;

interface NamedBlock {
  name: string;
  block: ContextBlock;
  /** Opening notes belong to the session's first reply only. */
  opening?: boolean;
}

function noneOmitted(): Record<OmittedKey, number> {
  return { memory: 0, inbox: 0, bonds: 0, dialog: 0, facts: 0, projectMemory: 0, peers: 0 };
}

export function assembleSessionContext(given: SessionContextInput): SessionContext {
  // Every text from files and transcripts made inert once, before any block is built (issue 14).
  const input = inertInput(given);
  const { settings, paths, clock } = input.config;
  const role = input.role;
  const language = languageOfRole(role);
  if (input.flags?.sleeping) {
    const text = sleepingContext({
      language,
      roleName: role.name,
      sleepStart: settings.ROLE_SLEEP_START,
      sleepEnd: settings.ROLE_SLEEP_END,
    });
    const report: LoadReport = { blocks: [], partLimit: settings.KIOKU_HOOK_OUTPUT_LIMIT, maxParts: Math.max(1, input.maxParts ?? 1) };
    return { parts: [text], omitted: noneOmitted(), snapshotParts: [], report };
  }
  const now = clock.now();
  const who = { name: role.name, language };
  const { inboxMemories, special, prepared } = listDerived(input, now);
  const fixed = {
    soul: soulBlock(role, language),
    agents: agentsBlock(role, {
      language,
      memoryHome: paths.memoryHome,
      roleHome: paths.roleHome,
      rules: input.agentsRules,
      resourcesDir: input.resourcesDir,
    }),
    relationship: relationshipBlock(input.state, who),
    journal: input.journalEntries === undefined ? EMPTY_BLOCK : journalPointerBlock(input.journalEntries, language),
    consent: consentBlock(input.state, { ...who, memoryDir: path.join(paths.memoryHome, role.id) }),
    sleepy: sleepyBlock(inboxMemories.length + (input.olderInbox?.visible ?? 0), settings.ROLE_SLEEP_REMIND_INBOX, who),
    // The brief is the role's own (its checks folder), never a project's: the whole list, which
    // the daemon has warmed, not the project's narrowed copy.
    brief: briefBlock(special, now, who),
    greeting: greetingBlock({ ...who, emoji: role.emoji }, input.flags?.firstMeeting ?? isFirstMeeting(input.state)),
    // The whole list: a waiting convention is this project's own, so never narrowed out.
    projectWaiting:
      input.project && input.projectMemory ? projectWaitingBlock(special, input.project, input.projectMemory, language) : EMPTY_BLOCK,
  };
  const project = input.projectMemory?.text.trim() ? input.projectMemory : undefined;
  const facts = input.facts?.trim() ? input.facts : undefined;

  // Shrinking tries many budgets; each block is built once per budget value it is tried with.
  const olderInjectable = input.olderInbox?.injectable;
  const inboxAt = memo(
    inboxBlockAt(inboxMemories, {
      language,
      now,
      count: settings.ROLE_LOAD_INBOX_COUNT,
      ...(olderInjectable ? { olderInjectable } : {}),
    }),
  );
  const bondsAt = memo((limit) => bondsBlock(input.bonds ?? [], { language, count: settings.ROLE_LOAD_BONDS_COUNT, limit }));
  // Lines another role of the session said are labelled with its name (issue 19).
  const speakerNames = new Map((input.peers ?? []).map((peer) => [peer.id, peer.name]));
  const dialogAt = memo((limit) =>
    dialogBlock(input.dialog ?? [], {
      language,
      roleName: role.name,
      roleId: role.id,
      speakerNames,
      turns: settings.ROLE_LOAD_DIALOG_TURNS,
      limit,
      now,
    }),
  );
  // Whole or a pointer: each of the two is built once, not at every budget shrinkToFit tries.
  const peersAt = memo((shown) => (shown ? peersBlock(input.peers ?? [], role, language) : EMPTY_BLOCK));
  const factsAt = memo((whole) =>
    facts ? (whole ? factsBlock(facts, paths.factsFile, language) : factsPointerBlock(paths.factsFile, language)) : EMPTY_BLOCK,
  );
  const projectAt = memo((whole) =>
    project ? (whole ? projectMemoryBlock(project, language) : projectMemoryPointerBlock(project, language)) : EMPTY_BLOCK,
  );
  const build = (b: Budgets): NamedBlock[] => {
    const blocks = buildBlocks(b);
    return [...blocks.slice(0, -3), { name: 'leftOut', block: leftOutBlock(blocks, language) }, ...blocks.slice(-3)];
  };
  const buildBlocks = (b: Budgets): NamedBlock[] => [
    { name: 'soul', block: fixed.soul },
    { name: 'agents', block: fixed.agents },
    { name: 'peers', block: peersAt(b.peers ? 1 : 0) },
    { name: 'relationship', block: fixed.relationship },
    { name: 'facts', block: factsAt(b.facts ? 1 : 0) },
    { name: 'projectMemory', block: projectAt(b.project ? 1 : 0) },
    { name: 'projectWaiting', block: fixed.projectWaiting },
    { name: 'journal', block: fixed.journal },
    { name: 'inbox', block: inboxAt(b.inbox) },
    { name: 'memory', block: fitLongTermMemory(prepared, b.memory, b.digest) },
    { name: 'bonds', block: bondsAt(b.bonds) },
    { name: 'dialog', block: dialogAt(b.dialog) },
    { name: 'consent', block: fixed.consent, opening: true },
    { name: 'sleepy', block: fixed.sleepy, opening: true },
    { name: 'brief', block: fixed.brief, opening: true },
    { name: 'greeting', block: fixed.greeting, opening: true },
  ];
  const limit = settings.KIOKU_HOOK_OUTPUT_LIMIT;
  const maxParts = Math.max(1, input.maxParts ?? 1);
  const pack = (blocks: readonly NamedBlock[]) =>
    packParts(
      blocks.map((named) => named.block.text),
      limit,
      language,
    );
  const initial: Budgets = {
    memory: settings.ROLE_LOAD_LIMIT,
    digest: undefined,
    inbox: settings.ROLE_LOAD_INBOX_LIMIT,
    bonds: settings.ROLE_LOAD_BONDS_LIMIT,
    dialog: settings.ROLE_LOAD_DIALOG_LIMIT,
    facts: true,
    project: true,
    peers: true,
  };
  const budgets = shrinkToFit(initial, (b) => {
    const blocks = build(b);
    const byName = new Map(blocks.map((named) => [named.name, named.block]));
    return { fits: pack(blocks).length <= maxParts, lengths: (name) => blockSize(byName, name) };
  });
  const blocks = build(budgets);
  const get = (name: string) => blocks.find((named) => named.name === name)!.block;
  const omitted = noneOmitted();
  for (const key of ['memory', 'inbox', 'bonds', 'dialog'] as const) omitted[key] = get(key).omitted;
  if (facts && !budgets.facts) omitted.facts = 1;
  if (project && !budgets.project) omitted.projectMemory = 1;
  if (!budgets.peers) omitted.peers = (input.peers ?? []).filter((peer) => peer.id !== role.id).length;
  const report: LoadReport = { blocks: blocks.map((named) => reportBlock(named, initial, budgets)), partLimit: limit, maxParts };
  return { parts: pack(blocks), omitted, snapshotParts: pack(blocks.filter((named) => !named.opening)), report };
}

function reportBlock(named: NamedBlock, initial: Budgets, effective: Budgets): LoadBlockReport {
  const { name, block } = named;
  const out: LoadBlockReport = {
    name,
    chars: block.text.length,
    shown: block.shown,
    omitted: block.omitted,
    opening: Boolean(named.opening),
  };
  if (name in BUDGET_SETTINGS) {
    const key = name as keyof typeof BUDGET_SETTINGS;
    out.budget = { setting: BUDGET_SETTINGS[key], configured: initial[key], effective: effective[key] };
  }
  if ((name === 'facts' && !effective.facts) || (name === 'projectMemory' && !effective.project) || (name === 'peers' && !effective.peers))
    out.replaced = true;
  return out;
}

/**
 * What the load derives from the memory lists alone: with the daemon's frozen lists it is kept
 * with them (list-memo.ts, memory-block.ts), which is what `warmSessionContext` fills ahead.
 */
function listDerived(input: WarmInput, now: Date) {
  // Frozen, so that what inbox-block.ts derives from it is kept with it too (list-memo.ts).
  const allInbox =
    input.inboxMemories ??
    memoByList(input.memories, 'inbox', () => Object.freeze(input.memories.filter((memory) => memory.category === 'inbox')));
  // Only what is injected from is made inert: the inbox, the brief and waiting candidates here,
  // the selected long-term memories in memory-block.ts (issue 14).
  const inboxMemories = inertMemories(memoriesForProject(allInbox, input.project));
  keepInboxOrder(allInbox, inboxMemories);
  const allLongTerm = input.longTermMemories ?? input.memories;
  const special = inertMemories(loadSpecialMemories(allLongTerm));
  // Prepared for every project (what the daemon warms ahead), then narrowed: session-project.ts.
  const whole = input.preparedLongTerm ?? prepareLongTermMemory(allLongTerm, longTermOptions(input, now));
  const prepared = preparedForProject(whole, input.project);
  return { inboxMemories, allLongTerm, special, prepared };
}

/** What the prepared long-term items depend on besides the memories (a prepared load on disk is keyed by it). */
export function longTermOptions(input: Pick<SessionContextInput, 'config' | 'role'>, now: Date) {
  const { settings } = input.config;
  return {
    roleId: input.role.id,
    language: languageOfRole(input.role),
    now,
    fullMinPriority: settings.ROLE_LOAD_FULL_MIN_PRIORITY,
    digestMinPriority: settings.ROLE_LOAD_DIGEST_MIN_PRIORITY,
  };
}

type WarmInput = Pick<
  SessionContextInput,
  'config' | 'role' | 'memories' | 'longTermMemories' | 'inboxMemories' | 'preparedLongTerm' | 'project'
>;

/**
 * Do now, in the daemon's idle time after its memory files changed, the part of the next load
 * that depends on the memories alone — selecting, sorting and formatting thousands of them — so
 * that the SessionStart or call by name that follows finds it done (X-PERF). Changes nothing:
 * an event assembled without it gives the same text, only later.
 */
export function warmSessionContext(input: WarmInput): void {
  const now = input.config.clock.now();
  const { inboxMemories, allLongTerm, special } = listDerived(input, now);
  inboxNewestFirst(inboxMemories, now);
  briefBlock(special, now, { name: input.role.name, language: languageOfRole(input.role) });
  // Whatever project the next session is in, it first asks which memories are project-specific.
  projectSpecificMemories(allLongTerm);
}

function memo<T>(build: (budget: number) => T): (budget: number) => T {
  const built = new Map<number, T>();
  return (budget) => {
    if (!built.has(budget)) built.set(budget, build(budget));
    return built.get(budget)!;
  };
}

const LEFT_OUT_NAMES: Record<string, { zh: string; en: string }> = {
  inbox: { zh: '則近期工作記憶', en: 'inbox items' },
  memory: { zh: '則長期記憶', en: 'long-term memories' },
  bonds: { zh: '則關係史', en: 'bonds' },
  dialog: { zh: '輪最近的對話', en: 'rounds of recent conversation' },
};

/**
 * A block squeezed to nothing cannot carry its own "N more not shown"; this line says it for
 * all of them, so the role knows what exists beyond the load (CTX-5).
 */
function leftOutBlock(blocks: readonly NamedBlock[], language: ContextLanguage): ContextBlock {
  const missing = blocks.filter((named) => named.name in LEFT_OUT_NAMES && !named.block.text && named.block.omitted > 0);
  if (missing.length === 0) return EMPTY_BLOCK;
  const zh = missing.map((named) => `${named.block.omitted} ${LEFT_OUT_NAMES[named.name]!.zh}`);
  const en = missing.map((named) => `${named.block.omitted} ${LEFT_OUT_NAMES[named.name]!.en}`);
  return textBlock(say(language, `（因篇幅未載入：${zh.join('、')}。）`, `(Left out of this load for room: ${en.join(', ')}.)`));
}

/** What each shrinkable budget currently takes up (for the summary part: its own room). */
function blockSize(blocks: Map<string, ContextBlock>, name: string): number {
  if (name === 'digest') return (blocks.get('memory') as { digestLength?: number } | undefined)?.digestLength ?? 0;
  return blocks.get(name)?.text.length ?? 0;
}
