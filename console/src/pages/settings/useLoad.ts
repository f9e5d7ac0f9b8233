// Loads what a settings page shows, and reloads it after a change: the answer, the server's
// error message when the load failed, and whether it is still on its way.
import { useCallback, useEffect, useState } from 'react';
import { messageOf } from './messages';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (answer) => {
        if (!live) return;
        setData(answer);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!live) return;
        setError(messageOf(failure));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
    // `load` is a module function per page; reloading is asked for through `round`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [round]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data, error, loading, reload };
}
