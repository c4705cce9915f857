import { useCallback, useRef, useState } from 'react';
import type { FilesChanged, UiResult } from '../../../../common/ui-contract.js';
import { useOnFilesChanged } from '../../app/use-files-changed.js';

/**
 * An editor of a file others write too (the CLI, an editor): when the file changes on disk, the
 * new text is shown at once unless the user has unsaved changes — those are never replaced
 * under their hands; a note says the file changed, and a save is then refused by main (the
 * revision moved) until they reload.
 */
export interface FollowDisk {
  /** The file changed on disk while the user had unsaved changes. */
  changedOutside: boolean;
  /** The editor reports whether its text differs from the file's. */
  setDirty(dirty: boolean): void;
  /** After a reload or a save: the view is the file again. */
  settled(): void;
}

export function useFollowDisk<V extends { revision: string }>(options: {
  matches(change: FilesChanged): boolean;
  read(): Promise<UiResult<V>> | undefined;
  current: V | undefined;
  apply(value: V): void;
}): FollowDisk {
  const dirty = useRef(false);
  const [changedOutside, setChangedOutside] = useState(false);
  useOnFilesChanged(options.matches, async () => {
    const answer = await options.read();
    if (!answer?.ok || answer.value.revision === options.current?.revision) return;
    if (dirty.current) setChangedOutside(true);
    else options.apply(answer.value);
  });
  // Stable, so editors and loaders that depend on them are not re-run on every render.
  const setDirty = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);
  const settled = useCallback(() => setChangedOutside(false), []);
  return { changedOutside, setDirty, settled };
}
