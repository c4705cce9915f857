import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../platform/fs/atomic-write.js';

/**
 * Atomic writes whose fsync is deferred to one barrier (`flush`) per plan.
 *
 * Why not atomic-write.ts's writers: each of them fsyncs the file and its folder, about 4 ms on
 * the development machines' disks. One plan of a large batch writes hundreds of files (created
 * memories, merged targets, one gzip per raw inbox item), and 1,000 inbox items written that way
 * took half a minute; the bench target is 5 s. Here every file is still written atomically
 * (temp file, then link or rename: a reader or a kill -9 sees the old file or the new one, never
 * half of each), and `flush` then fsyncs every file and folder touched, all at once from the
 * thread pool, so the file system commits them together.
 *
 * Crash safety does not depend on these files being on disk before the barrier: apply records the
 * plan as pending durably first, and removes inbox items only after `flush`. A power cut before
 * the barrier can leave a created file empty; a replay checks what it finds (apply-plan.ts) and
 * writes it again, and the inbox item is still there.
 */
function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

export class DeferredWrites {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();

  private writeTemp(target: string, data: string | Uint8Array, mode: number): string {
    const dir = path.dirname(target);
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = tempNameFor(target);
    const fd = fs.openSync(temp, 'wx', mode);
    try {
      // openSync's mode passes through the umask; a rewrite must keep exactly the old mode. A new
      // private file needs no fchmod: a umask never adds bits to 0600.
      if (mode !== PRIVATE_FILE_MODE) fs.fchmodSync(fd, mode);
      fs.writeFileSync(fd, data);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(temp, { force: true });
      throw error;
    }
    fs.closeSync(fd);
    return temp;
  }

  /** Create `target` only if it does not exist; false (nothing written) when it does. */
  createExclusive(target: string, data: string | Uint8Array): boolean {
    const temp = this.writeTemp(target, data, PRIVATE_FILE_MODE);
    try {
      fs.linkSync(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
    this.files.add(target);
    this.dirs.add(path.dirname(target));
    return true;
  }

  /**
   * Create `target`, which the caller has just seen missing, with one rename instead of a link and
   * an unlink (a third of the metadata work, which dominates a large plan). Only for folders no one
   * else writes while the role's memory lock is held (archive/raw): the check and the rename are
   * not one atomic step, so another writer could be overwritten.
   */
  createKnownMissing(target: string, data: string | Uint8Array): void {
    const temp = this.writeTemp(target, data, PRIVATE_FILE_MODE);
    try {
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    this.files.add(target);
    this.dirs.add(path.dirname(target));
  }

  /** Replace (or create) `target` atomically, keeping the mode it had (a user's chmod survives). */
  replace(target: string, data: string | Uint8Array): void {
    let mode = PRIVATE_FILE_MODE;
    try {
      mode = fs.statSync(target).mode & 0o7777;
    } catch {
      /* new file */
    }
    const temp = this.writeTemp(target, data, mode);
    try {
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    this.files.add(target);
    this.dirs.add(path.dirname(target));
  }

  /** Note a folder whose entries changed (an unlink) so that `flush` makes the change durable. */
  touchedDir(dir: string): void {
    this.dirs.add(dir);
  }

  get pending(): number {
    return this.files.size + this.dirs.size;
  }

  /** fsync everything written since the last flush: files first, then their folders. */
  async flush(): Promise<void> {
    const files = [...this.files];
    const dirs = [...this.dirs];
    this.files.clear();
    this.dirs.clear();
    await inBatches(files, async (file) => {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'r+');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed since (e.g. a later step)
        throw error;
      }
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
    // Windows cannot open folders for fsync (atomic-write.ts skips them too).
    if (process.platform === 'win32') return;
    await inBatches(dirs, async (dir) => {
      try {
        const handle = await fs.promises.open(dir, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      } catch {
        /* best effort, as atomic-write.ts does for folders */
      }
    });
  }
}

/** Run `task` over `items`, at most 64 at a time (enough to keep the thread pool busy, few fds). */
async function inBatches<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(64, items.length) }, worker));
}
