import { useCallback, useEffect, useRef, useState } from 'react';
import type { MemoryListItem, UiError, UiRequest } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';

/** Rows fetched per call: a few screens' worth, so scrolling rarely waits. */
export const PAGE_SIZE = 200;

export type MemoryFilters = Omit<UiRequest<'memories.list'>, 'offset' | 'limit'>;

export interface MemoryRows {
  /** undefined until the first page answered. */
  total: number | undefined;
  /** The row at an index, once its page arrived. */
  get(index: number): MemoryListItem | undefined;
  /** Ask for the pages that hold rows start…end (inclusive). */
  ensure(start: number, end: number): void;
  error: UiError | undefined;
  unreadable: number;
  /** Bumped whenever rows arrive or were dropped: a render key for the list. */
  version: number;
}

/**
 * The timeline's rows, one page at a time as the list scrolls (10,000+ memories stay smooth:
 * only what is near the viewport is ever fetched). New filters start over; `reloadKey` (bumped
 * on `memories.changed`) fetches the visible pages again.
 */
export function useMemoryPages(filters: MemoryFilters, reloadKey: number): MemoryRows {
  const bridge = useBridge();
  const key = JSON.stringify(filters);
  const pages = useRef(new Map<number, MemoryListItem[]>());
  const requested = useRef(new Set<number>());
  const generation = useRef(0);
  const [total, setTotal] = useState<number>();
  const [error, setError] = useState<UiError>();
  const [unreadable, setUnreadable] = useState(0);
  const [version, setVersion] = useState(0);

  const fetchPage = useCallback(
    (page: number) => {
      if (requested.current.has(page)) return;
      requested.current.add(page);
      const mine = generation.current;
      const request = { ...(JSON.parse(key) as MemoryFilters), offset: page * PAGE_SIZE, limit: PAGE_SIZE };
      void bridge.invoke('memories.list', request).then((result) => {
        if (mine !== generation.current) return; // filters changed meanwhile: an answer to an old question
        if (!result.ok) {
          requested.current.delete(page);
          setError(result.error);
          return;
        }
        pages.current.set(page, result.value.items);
        setTotal(result.value.total);
        setUnreadable(result.value.unreadable);
        setError(undefined);
        setVersion((v) => v + 1);
      });
    },
    [bridge, key],
  );

  // New filters: forget everything, show the count as unknown, and start from the top.
  useEffect(() => {
    generation.current += 1;
    pages.current = new Map();
    requested.current = new Set();
    setTotal(undefined);
    setVersion((v) => v + 1);
    fetchPage(0);
  }, [key, fetchPage]);

  // Files changed on disk: the rows shown stay until fresh ones replace them (no flicker); every
  // page counts as not asked for again, so what is in view is fetched anew (ensure follows the render).
  const firstReload = useRef(true);
  useEffect(() => {
    if (firstReload.current) {
      firstReload.current = false;
      return;
    }
    generation.current += 1;
    requested.current = new Set();
    setVersion((v) => v + 1);
    fetchPage(0);
  }, [reloadKey, fetchPage]);

  const get = useCallback((index: number) => pages.current.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE], []);
  const ensure = useCallback(
    (start: number, end: number) => {
      for (let page = Math.floor(Math.max(0, start) / PAGE_SIZE); page <= Math.floor(Math.max(0, end) / PAGE_SIZE); page++) fetchPage(page);
    },
    [fetchPage],
  );

  return { total, get, ensure, error, unreadable, version };
}
