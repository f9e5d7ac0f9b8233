// Loads something from the API for a page of the datasets area, with the server's error message
// when it fails and a reload after a change; a newer load or leaving the page drops the older one.
import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> = { phase: 'loading' } | { phase: 'done'; value: T } | { phase: 'error'; message: string };

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>, keys: readonly unknown[]): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ phase: 'loading' });
  const [generation, setGeneration] = useState(0);
  // `keys` say when to load again (the function itself is new on every render).
  const stableLoad = useCallback(load, keys);
  // New keys show "loading" rather than what the old ones loaded; a reload keeps it until replaced.
  useEffect(() => setState({ phase: 'loading' }), [stableLoad]);
  useEffect(() => {
    const controller = new AbortController();
    stableLoad(controller.signal).then(
      (value) => !controller.signal.aborted && setState({ phase: 'done', value }),
      (error: unknown) => !controller.signal.aborted && setState({ phase: 'error', message: errorMessage(error) }),
    );
    return () => controller.abort();
  }, [stableLoad, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return [state, reload];
}
