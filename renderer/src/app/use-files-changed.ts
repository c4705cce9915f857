import { useEffect, useRef } from 'react';
import type { FilesChanged } from '../../../common/ui-contract.js';
import { useBridge } from './bridge-context.js';

/**
 * Run `reload` when main reports that a file this view shows changed outside the app (FACT.md,
 * JOURNAL.jsonl, a project's MEMORY.md, a role's DIGESTS.md or state.json; change-watch.ts).
 * `matches` and `reload` are read at the time of the event, so they need not be stable.
 */
export function useOnFilesChanged(matches: (change: FilesChanged) => boolean, reload: () => unknown): void {
  const bridge = useBridge();
  const latest = useRef({ matches, reload });
  latest.current = { matches, reload };
  useEffect(
    () =>
      bridge.subscribe('files.changed', (change) => {
        if (latest.current.matches(change)) void latest.current.reload();
      }),
    [bridge],
  );
}
