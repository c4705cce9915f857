import type { SheetImage } from './sheet-image.js';

/**
 * A sheet the UI picked but has not saved: held in the daemon's memory, never in the role's
 * folder, until 確認儲存 stores it (emoji.saveSheet). One per role (a new pick replaces it), so
 * a cancelled pick leaves nothing behind on disk and at most one image per role in memory.
 */
export interface StagedSheet {
  /** The name it will be stored under if nothing else claims it first (the next free version). */
  name: string;
  image: SheetImage;
}

export interface SheetStaging {
  put(id: string, sheet: StagedSheet): void;
  /** The staged sheet of a role, when it has this name. */
  get(id: string, name: string): StagedSheet | undefined;
  drop(id: string): void;
}

export function createSheetStaging(): SheetStaging {
  const staged = new Map<string, StagedSheet>();
  return {
    put: (id, sheet) => void staged.set(id, sheet),
    get: (id, name) => {
      const sheet = staged.get(id);
      return sheet && sheet.name === name ? sheet : undefined;
    },
    drop: (id) => void staged.delete(id),
  };
}
