import { useEffect } from 'react';
import { useBridge } from './bridge-context.js';

/**
 * Run `reload` whenever the app reports that this role's memory files changed (a capture, a
 * sleep, an edit elsewhere), so a view of that role's memories never shows stale data.
 * `reload` should be stable (useCallback): a new one re-subscribes.
 */
export function useOnMemoriesChanged(role: string, reload: () => unknown): void {
  const bridge = useBridge();
  useEffect(
    () =>
      bridge.subscribe('memories.changed', ({ roles }) => {
        if (roles.includes(role)) void reload();
      }),
    [bridge, role, reload],
  );
}
