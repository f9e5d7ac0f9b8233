// Loads something for a page when its inputs change: the previous request is aborted, and the
// result says whether it is loading, what came back, or the server's error message.
import { type DependencyList, useEffect, useState } from 'react';

export type Loaded<T> = { state: 'loading'; data?: T } | { state: 'done'; data: T } | { state: 'error'; message: string; data?: T };

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setLoaded((current) => ({ state: 'loading', ...(current.data !== undefined ? { data: current.data } : {}) }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setLoaded({ state: 'done', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
    // The caller lists what `load` depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return loaded;
}
