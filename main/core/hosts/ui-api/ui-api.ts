import { describeError, isKiokuError } from '../../../../common/errors.js';
import {
  isUiChannel,
  parseUiRequest,
  uiErr,
  uiOk,
  type UiChannel,
  type UiParsedRequest,
  type UiResponse,
  type UiResult,
} from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { createSheetStaging } from '../../store/emoji/emoji-staging.js';
import { buildAppState, type AppStateSource } from './app-state.js';
import { listBonds } from './bonds-handlers.js';
import { knownProjects, readFactsView, readProjectMemoryView, saveFacts, saveProjectMemory } from './facts-handlers.js';
import { appendJournalEntry, journalTags, searchJournalEntries } from './journal-handlers.js';
import { createMemoryActionHandlers } from './memory-action-handlers.js';
import { createMemoryHandlers } from './memory-handlers.js';
import {
  applyRoleEdit,
  archiveRoleFromUi,
  createRoleFromUi,
  getRole,
  listRoles,
  planRoleEdit,
  reorderRoles,
  setActiveRole,
} from './role-handlers.js';
import { roleMindmap } from './mindmap-handlers.js';
import { archivedRoles, purgeArchive, restoreRoleFromUi } from './archived-role-handlers.js';
import { settingsView, updateSettings } from './settings-handlers.js';
import { uiErrorOf } from './ui-error-of.js';
import { previewNextSession } from './preview-handlers.js';
import { runSleepFromUi, sleepDigest, sleepHistory, workerSleepRunner, type SleepRunner } from './sleep-handlers.js';
import { noteProjectInView } from './watched-projects.js';
import { diagnose, statusReport, type StatusProbes } from './status-handlers.js';

export interface UiApiDeps extends AppStateSource {
  logger: Logger;
  /** Called after a channel changed files (roles, `.active`, `.order`), so hosts push the new state. */
  onChanged?: () => void;
  /** How `sleep.run` consolidates; default: the worker thread (sleep-handlers.ts). */
  runSleep?: SleepRunner;
  /** What `status.get` / `status.diagnose` read of the machine (crontab, processes); default: the real ones. */
  statusProbes?: StatusProbes;
}

type Handler<C extends UiChannel> = (request: UiParsedRequest<C>) => UiResponse<C> | Promise<UiResponse<C>>;
type Handlers = { [C in UiChannel]: Handler<C> };

/** Channels that write; a successful call is followed by onChanged. */
const WRITES: ReadonlySet<UiChannel> = new Set([
  'roles.create',
  'roles.applyChange',
  'roles.archive',
  'roles.setActive',
  'roles.reorder',
  'roles.restore',
  'roles.purge',
  'sleep.run',
  'emoji.saveSheet',
  'settings.update',
]);

/** The emoji sheet handlers bring sharp (native): loaded on first use, not with every host. */
const emojiHandlers = () => import('./emoji-handlers.js');

export interface UiApi {
  /**
   * Validate and run one call. Never throws: every failure is a UiResult error with a code
   * (KiokuError codes pass through) and a message, never a stack trace. Hosts (the web server,
   * Electron's ipcMain) call this and only move bytes.
   */
  call(channel: string, body: unknown): Promise<UiResult<unknown>>;
}

/** The handlers behind every channel of common/ui-contract.ts, host-neutral. */
export function createUiApi(config: KiokuConfig, deps: UiApiDeps): UiApi {
  const memories = createMemoryHandlers(config, deps.logger);
  const actions = createMemoryActionHandlers(config, deps.logger);
  const runSleep = deps.runSleep ?? workerSleepRunner(config);
  // Picked emoji sheets wait here, in memory, until the user confirms the save (emoji-staging.ts).
  const staging = createSheetStaging();
  /** A project a window reads is watched for outside edits (change-watch.ts). */
  const watching = <V extends { project: string }>(view: V): V => {
    noteProjectInView(view.project);
    return view;
  };
  const handlers: Handlers = {
    'state.get': () => buildAppState(config, deps),
    'roles.list': () => listRoles(config),
    'roles.get': ({ id }) => getRole(config, id),
    'roles.create': (request) => createRoleFromUi(config, request),
    'roles.planChange': (request) => planRoleEdit(config, request),
    'roles.applyChange': (request) => applyRoleEdit(config, request),
    'roles.archive': ({ id }) => archiveRoleFromUi(config, id),
    'roles.setActive': ({ id }) => setActiveRole(config, id),
    'roles.reorder': ({ order }) => reorderRoles(config, order),
    'roles.archived': () => archivedRoles(config),
    'roles.restore': ({ folder }) => restoreRoleFromUi(config, folder),
    'roles.purge': ({ folder, confirmId }) => purgeArchive(config, folder, confirmId),
    'emoji.get': async ({ id, sheet }) => (await emojiHandlers()).getEmojiSheet(config, staging, id, sheet),
    'emoji.avatars': async () => (await emojiHandlers()).roleAvatars(config),
    'emoji.importSheet': async (request) => (await emojiHandlers()).importEmojiSheet(config, staging, request),
    'emoji.previewGrid': async (request) => (await emojiHandlers()).previewEmojiGrid(config, staging, request),
    'emoji.planSave': async (request) => (await emojiHandlers()).planEmojiSave(config, staging, request),
    'emoji.saveSheet': async (request) => (await emojiHandlers()).saveEmojiSheet(config, staging, request),
    'memories.list': (request) => memories.list(request),
    'memories.search': (request) => memories.search(request),
    'memories.get': (request) => memories.get(request),
    'memories.stats': (request) => memories.stats(request),
    'memories.edit': (request) => actions.edit(request),
    'memories.pin': (request) => actions.pin(request),
    'memories.markWrong': (request) => actions.markWrong(request),
    'memories.forget': (request) => actions.forget(request),
    'memories.restore': (request) => actions.restore(request),
    'memories.forgotten': (request) => actions.forgotten(request),
    'sleep.history': (request) => sleepHistory(config, request),
    'sleep.run': (request) => runSleepFromUi(request, runSleep),
    'bonds.list': (request) => listBonds(config, request),
    'facts.read': () => readFactsView(config),
    'facts.update': (request) => saveFacts(config, request),
    'projectMemory.projects': () => knownProjects(config),
    'projectMemory.read': (request) => watching(readProjectMemoryView(config, request)),
    'projectMemory.update': async (request) => {
      const saved = await saveProjectMemory(config, request);
      watching(saved.view);
      return saved;
    },
    'journal.append': (request) => appendJournalEntry(config, request),
    'journal.search': (request) => searchJournalEntries(config, request),
    'journal.tags': () => journalTags(config),
    'status.get': () => statusReport(config, deps, deps.statusProbes),
    'status.diagnose': () => diagnose(config, deps, deps.statusProbes),
    'settings.get': () => settingsView(config),
    'settings.update': (request) => updateSettings(config, request),
    'mindmap.get': (request) => roleMindmap(config, request),
    'context.preview': (request) => {
      const preview = previewNextSession(config, deps.logger, request, memories.memoryCache());
      if (request.project !== undefined) noteProjectInView(preview.cwd);
      return preview;
    },
    'sleep.digest': (request) =>
      sleepDigest(config, request, (id) => {
        try {
          return { summary: memories.get({ role: request.role, id }).summary };
        } catch {
          return undefined; // forgotten, or removed by hand since
        }
      }),
  };

  const run = async <C extends UiChannel>(channel: C, body: unknown): Promise<UiResult<unknown>> => {
    const parsed = parseUiRequest(channel, body);
    if (!parsed.ok) return parsed;
    try {
      const value = await (handlers[channel] as Handler<C>)(parsed.value);
      if (WRITES.has(channel)) deps.onChanged?.();
      return uiOk(value);
    } catch (error) {
      if (isKiokuError(error)) return uiErrorOf(error);
      // Unexpected: the full error goes to the log; the UI gets one line it can show.
      deps.logger.error('web', `${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return uiErr(
        'INTERNAL',
        `${channel} failed: ${describeError(error)}`,
        'details are in the Kioku log (<memory home>/.kioku/logs/kioku.log)',
      );
    }
  };

  return {
    call: (channel, body) => {
      if (!isUiChannel(channel)) {
        return Promise.resolve(
          uiErr(
            'UNKNOWN_CHANNEL',
            `no UI channel "${channel.slice(0, 80)}"`,
            'the UI and the app may be different versions; reload the page',
          ),
        );
      }
      return run(channel, body);
    },
  };
}
