import { useCallback, useEffect, useState } from 'react';
import type { AppState, UiError } from '../../../common/ui-contract.js';
import { useBridge } from './bridge-context.js';

export interface AppStateHandle {
  state: AppState | undefined;
  error: UiError | undefined;
  connected: boolean;
  /** Ask again now (after a change this window made; the pushed state follows anyway). */
  refresh(): Promise<void>;
}

/** The app state: asked for once, then kept current by `state.changed` pushes. */
export function useAppState(): AppStateHandle {
  const bridge = useBridge();
  const [state, setState] = useState<AppState>();
  const [error, setError] = useState<UiError>();
  const [connected, setConnected] = useState(true);

  const refresh = useCallback(async () => {
    const result = await bridge.invoke('state.get', {});
    if (result.ok) {
      setState(result.value);
      setError(undefined);
    } else setError(result.error);
  }, [bridge]);

  useEffect(() => {
    void refresh();
    const offState = bridge.subscribe('state.changed', (next) => {
      setState(next);
      setError(undefined);
    });
    let wasConnected = true;
    const offConnection = bridge.onConnectionChange((value) => {
      setConnected(value);
      // Coming back after a gap: what was pushed meanwhile is lost, so ask for the whole state.
      if (value && !wasConnected) void refresh();
      wasConnected = value;
    });
    return () => {
      offState();
      offConnection();
    };
  }, [bridge, refresh]);

  return { state, error, connected, refresh };
}
