import path from 'node:path';
import { watch } from 'chokidar';
import { isCategory } from '../../../../common/memory.js';
import { isValidRoleId } from '../../../../common/role-id.js';
import { isMemoryFileName } from './folder-diff.js';
import { syncPaths, type SyncResult } from './index-sync.js';
import { withIndexRecovery, type MemoryIndex } from './memory-index.js';

/**
 * Keeps an open index current while a long-running process (the daemon, the tray app) holds
 * it: edits made outside Kioku — an editor, git, seed 000's scripts — reach the index within
 * `debounceMs`, including in-place edits that do not change a folder's mtime and so escape the
 * folder diff that recall runs (recall's full check finds them too, but in a large role only
 * every 10 minutes: full-check.ts).
 */
export interface IndexWatcherOptions {
  /** Quiet time after the last event before the batch is indexed (default 200 ms). */
  debounceMs?: number;
  /** After each batch is in the index. */
  onSynced?: (paths: string[], result: SyncResult) => void;
  /** A batch that could not be indexed (it is retried with the next one). */
  onError?: (error: unknown) => void;
}

export interface IndexWatcher {
  /** Resolves once the folders are watched; changes before that are not seen. */
  readonly ready: Promise<void>;
  /** Index what is pending, then stop watching. */
  close(): Promise<void>;
}

/**
 * Only `<role>/<category>/<name>.md` matters: the state dir (the index itself lives there),
 * archive/, BONDS.md, state.json and our `.*.tmp` files are not watched at all.
 */
function isIgnored(memoryHome: string, file: string): boolean {
  const relative = path.relative(memoryHome, file);
  if (relative === '') return false;
  const parts = relative.split(path.sep);
  if (parts[0] === '..' || !isValidRoleId(parts[0]!)) return true;
  if (parts.length === 1) return false;
  if (!isCategory(parts[1]!)) return true;
  if (parts.length === 2) return false;
  return parts.length > 3 || !isMemoryFileName(parts[2]!);
}

export function watchMemoryIndex(index: MemoryIndex, options: IndexWatcherOptions = {}): IndexWatcher {
  const debounceMs = options.debounceMs ?? 200;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    if (!pending.size) return;
    const paths = [...pending];
    pending.clear();
    try {
      const result = withIndexRecovery(index, () => syncPaths(index, paths, { recordFolderMtimes: true }));
      options.onSynced?.(paths, result);
    } catch (error) {
      for (const file of paths) pending.add(file);
      index.logger.warn('index', `watcher could not index ${paths.length} changed file(s): ${(error as Error).message}`);
      options.onError?.(error);
    }
  };

  const watcher = watch(index.memoryHome, {
    ignoreInitial: true,
    ignored: (file) => isIgnored(index.memoryHome, file),
  });
  const schedule = (file: string) => {
    pending.add(path.resolve(file));
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  watcher.on('add', schedule).on('change', schedule).on('unlink', schedule);
  watcher.on('error', (error) => {
    index.logger.warn('index', `watcher error: ${(error as Error).message}`);
    options.onError?.(error);
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    ready,
    async close() {
      if (timer) clearTimeout(timer);
      flush();
      await watcher.close();
    },
  };
}
