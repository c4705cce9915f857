import { useCallback, useEffect, useState, type DependencyList } from 'react';
import type { UiError, UiResult } from '../../../common/ui-contract.js';

/**
 * What a view shows from one bridge call: loaded when the view opens and again on `reload`
 * (an error notice's Retry, an editor's Reload). `setValue` takes a newer value a save returned.
 */
export interface Loaded<T> {
  value: T | undefined;
  error: UiError | undefined;
  reload(): Promise<void>;
  setValue(value: T): void;
}

export function useLoaded<T>(fetch: () => Promise<UiResult<T>>, deps: DependencyList): Loaded<T> {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<UiError>();
  // `deps` are what `fetch` reads (as with useCallback): a new one loads again.
  const reload = useCallback(async () => {
    const answer = await fetch();
    if (answer.ok) {
      setValue(answer.value);
      setError(undefined);
    } else setError(answer.error);
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { value, error, reload, setValue };
}
