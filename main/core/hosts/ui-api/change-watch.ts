import fs from 'node:fs';
import path from 'node:path';
import { ALL_CATEGORIES } from '../../../../common/memory.js';
import type { FilesChanged } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listMemoryRoles, roleMemoryDir } from '../../store/memory/memory-layout.js';
import { digestsFile } from '../../store/memory/digests.js';
import { memoryStateFile } from '../../store/memory/memory-state.js';
import { sleepView, type AppStateSource } from './app-state.js';
import { fileKey, projectKeyWhenRead, projectsInView } from './watched-projects.js';

/**
 * Notices file changes the UI should hear about by polling modification times (plus the sleep
 * state) while someone listens; the files are the truth.
 * Design notes: docs/design-notes.md, "main/core/hosts/ui-api/change-watch.ts".
 */
export interface ChangeWatchOptions {
  config: KiokuConfig;
  source: AppStateSource;
  intervalMs?: number;
  /** Roles whose memory folders changed since the last look. */
  onMemoriesChanged(roles: string[]): void;
  /** Roles, the active role, the order or the sleep state may have changed. */
  onStateMaybeChanged(): void;
  /** FACT.md, JOURNAL.jsonl, an open project's MEMORY.md, a role's DIGESTS.md or state.json changed. */
  onFilesChanged?(change: FilesChanged): void;
}

export interface ChangeWatch {
  /** Look now and report (also done every intervalMs while running). */
  check(): void;
  start(): void;
  stop(): void;
}

const mtimeOf = fileKey;

function roleHomeKey(roleHome: string): string {
  let names: string[];
  try {
    names = fs.readdirSync(roleHome).filter((name) => name.endsWith('.md') || name === '.active' || name === '.order');
  } catch {
    return '-';
  }
  return names
    .sort()
    .map((name) => `${name}=${mtimeOf(path.join(roleHome, name))}`)
    .join('|');
}

function memoryKeys(memoryHome: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const id of listMemoryRoles(memoryHome)) {
    const dir = roleMemoryDir(memoryHome, id);
    keys.set(id, ALL_CATEGORIES.map((category) => mtimeOf(path.join(dir, category))).join('|'));
  }
  return keys;
}

/** The files outside the memory folders that views show, each with its modification key. */
function fileKeys(config: KiokuConfig): Map<string, string> {
  const keys = new Map<string, string>([
    ['facts', mtimeOf(config.paths.factsFile)],
    ['journal', mtimeOf(config.paths.journalFile)],
  ]);
  for (const folder of projectsInView()) keys.set(`project:${folder}`, mtimeOf(path.join(folder, 'MEMORY.md')));
  for (const id of listMemoryRoles(config.paths.memoryHome)) {
    keys.set(`role:${id}`, `${mtimeOf(digestsFile(config.paths.memoryHome, id))}|${mtimeOf(memoryStateFile(config.paths.memoryHome, id))}`);
  }
  return keys;
}

/** What differs between two looks; undefined when nothing does (a key new since the last look counts only when it was there before). */
export function filesChangedBetween(before: Map<string, string>, after: Map<string, string>): FilesChanged | undefined {
  const changed = [...after.keys()].filter((key) => before.has(key) && before.get(key) !== after.get(key));
  // A role folder that appeared is a change of its own (its first consolidation); a project just opened is not.
  for (const key of after.keys()) if (key.startsWith('role:') && !before.has(key)) changed.push(key);
  if (changed.length === 0) return undefined;
  return {
    facts: changed.includes('facts'),
    journal: changed.includes('journal'),
    projects: changed.filter((key) => key.startsWith('project:')).map((key) => key.slice('project:'.length)),
    roles: changed
      .filter((key) => key.startsWith('role:'))
      .map((key) => key.slice('role:'.length))
      .sort(),
  };
}

export function createChangeWatch(options: ChangeWatchOptions): ChangeWatch {
  const { config, source } = options;
  const intervalMs = options.intervalMs ?? 1500;
  let timer: NodeJS.Timeout | undefined;
  let lastState = '';
  let lastMemories = new Map<string, string>();
  let lastFiles = new Map<string, string>();
  let primed = false;

  const check = () => {
    const status = source.status();
    const stateKey = JSON.stringify([roleHomeKey(config.paths.roleHome), sleepView(config, status), status.spoolPending]);
    const memories = memoryKeys(config.paths.memoryHome);
    const files = options.onFilesChanged ? fileKeys(config) : lastFiles;
    if (primed) {
      // A project opened since the last look is compared with what the window read, so a change
      // made between that read and this look (a fast `kioku project-memory update`) is not missed.
      for (const key of files.keys()) {
        const folder = key.startsWith('project:') ? key.slice('project:'.length) : undefined;
        const seen = folder === undefined || lastFiles.has(key) ? undefined : projectKeyWhenRead(folder);
        if (seen !== undefined) lastFiles.set(key, seen);
      }
      const filesChanged = options.onFilesChanged ? filesChangedBetween(lastFiles, files) : undefined;
      if (filesChanged) options.onFilesChanged?.(filesChanged);
      const changedRoles = [...new Set([...memories.keys(), ...lastMemories.keys()])].filter(
        (id) => memories.get(id) !== lastMemories.get(id),
      );
      if (changedRoles.length > 0) options.onMemoriesChanged(changedRoles.sort());
      // Memory counts are part of the state, so a memory change is a state change too.
      if (changedRoles.length > 0 || stateKey !== lastState) options.onStateMaybeChanged();
    }
    primed = true;
    lastState = stateKey;
    lastMemories = memories;
    lastFiles = files;
  };

  return {
    check,
    start() {
      if (timer) return;
      const look = () => {
        try {
          check();
        } catch {
          /* a folder vanished mid-look; the next tick sees the new shape */
        }
      };
      look();
      timer = setInterval(look, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      primed = false;
    },
  };
}
