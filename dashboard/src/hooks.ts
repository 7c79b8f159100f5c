import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorMessage, type WorkflowName } from './api.ts';
import { can } from './session.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
  /** Replaces the data with what the page's own change answered: a load still under way read before that change, so its answer is dropped. */
  setData: (data: T) => void;
  /**
   * Applies the page's own change (a token created, a user removed) to the data read. Until a
   * read has come back there is nothing to apply it to, so the data is read again instead: an
   * answer under way may have been read before the change.
   */
  change: (apply: (current: T) => T) => void;
}

/** Loads data for a page and reloads when `deps` change; a late answer for old deps is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setLoadedData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const settled = useRef(false);
  useEffect(() => {
    const call = ++latest.current;
    settled.current = false;
    setLoading(true);
    setError(null);
    load().then(
      (value) => {
        if (call !== latest.current) return;
        settled.current = true;
        setLoadedData(value);
        setLoading(false);
      },
      (failure: unknown) => {
        if (call !== latest.current) return;
        setError(errorMessage(failure));
        setLoading(false);
      },
    );
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const setData = useCallback((value: T) => {
    latest.current++;
    settled.current = true;
    setLoadedData(value);
    setError(null);
    setLoading(false);
  }, []);
  const change = useCallback((apply: (current: T) => T) => {
    if (!settled.current) return setGeneration((g) => g + 1);
    setLoadedData((current) => (current === undefined ? current : apply(current)));
  }, []);
  return { data, error, loading, reload, setData, change };
}

/**
 * The organization's workflows by name, with their statuses, to name and pick them beside
 * cases, figures and subscriptions: every role may read these (a viewer cannot read definitions).
 */
export function useWorkflows(): Loaded<WorkflowName[]> {
  return useLoad(() => (can('listWorkflowNames') ? api.get<{ workflows: WorkflowName[] }>('/workflow_names').then((r) => r.workflows) : Promise.resolve([])), []);
}

/** Runs one action at a time (a button's click), with its pending state and error. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A): Promise<R | undefined> => {
    setPending(true);
    setError(null);
    try {
      return await action(...args);
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, clearError: () => setError(null) };
}

/** Sets the browser tab's title for the page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Case Intake Admin`;
  }, [title]);
}

/**
 * Calls `poll` every `intervalMs` while the page is visible (document.visibilityState), and at
 * once when it becomes visible again: a hidden tab asks nothing. A poll still under way is not
 * started again.
 */
export function usePolling(poll: () => Promise<void>, intervalMs: number, deps: unknown[]): void {
  const latest = useRef(poll);
  latest.current = poll;
  useEffect(() => {
    let running = false;
    const tick = () => {
      if (running || document.visibilityState !== 'visible') return;
      running = true;
      // A failed poll leaves the page as it was; the next one asks again (a 401 still signs out, in the API client).
      latest.current()
        .catch(() => undefined)
        .finally(() => (running = false));
    };
    const timer = setInterval(tick, intervalMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, deps);
}

/** One page of a list read oldest first, as the API answered it (`text`, to tell whether a later answer differs). */
interface ListPage<T> {
  cursor: string | undefined;
  items: T[];
  next: string | null;
  text: string;
}

export interface LivePages<T> {
  /** Every item of the pages loaded, oldest first; undefined while the first page loads. */
  items: T[] | undefined;
  error: string | null;
  hasMore: boolean;
  /** Adds the page after the last one loaded. */
  more: () => Promise<void>;
  /** Asks for the last page loaded again (where new items arrive) and shows it if it changed. */
  refresh: () => Promise<void>;
}

/**
 * A list read oldest first a page at a time (a case's timeline, its comments), which only ever
 * grows at its end: only its last page needs asking again to see what was added, and the
 * pages are replaced (and drawn again) only when that answer differs from the one shown.
 */
export function useLivePages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next: string | null }>, deps: unknown[]): LivePages<T> {
  const [pages, setPages] = useState<ListPage<T>[] | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const shown = useRef(pages);
  shown.current = pages;
  const read = async (cursor: string | undefined): Promise<ListPage<T>> => {
    const page = await fetchPage(cursor);
    return { cursor, ...page, text: JSON.stringify(page) };
  };
  useEffect(() => {
    let stale = false;
    setPages(undefined);
    setError(null);
    read(undefined).then(
      (page) => !stale && setPages([page]),
      (failure: unknown) => !stale && setError(errorMessage(failure)),
    );
    return () => {
      stale = true;
    };
  }, deps);
  const refresh = async () => {
    const before = shown.current;
    const last = before?.at(-1);
    if (!before || !last) return;
    const fresh = await read(last.cursor);
    // Another answer (a later page, a newer poll) was shown meanwhile: it stands.
    if (shown.current !== before || fresh.text === last.text) return;
    setPages([...before.slice(0, -1), fresh]);
  };
  const more = async () => {
    const before = shown.current;
    const next = before?.at(-1)?.next;
    if (!before || !next) return;
    const page = await read(next);
    if (shown.current === before) setPages([...before, page]);
  };
  return { items: pages?.flatMap((page) => page.items), error, hasMore: Boolean(pages?.at(-1)?.next), more, refresh };
}
