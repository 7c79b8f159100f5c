import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorMessage, type WorkflowName } from './api.ts';
import { can } from './session.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
  /** Replaces the data after a change the page made itself (no extra round trip). */
  setData: (data: T) => void;
}

/** Loads data for a page and reloads when `deps` change; a late answer for old deps is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    setError(null);
    load().then(
      (value) => {
        if (call !== latest.current) return;
        setData(value);
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
  return { data, error, loading, reload, setData };
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
