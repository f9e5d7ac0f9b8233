// Runs one APL query at a time for the page: a new run or Cancel aborts the one in flight (the
// server stops working on it when its request goes away), and the seconds elapsed tick while
// it runs.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { MAX_ROWS, runApl, type TabularAnswer } from '../../api/query';

export type RunState =
  | { phase: 'idle' }
  | { phase: 'running'; startedAt: number }
  | { phase: 'done'; answer: TabularAnswer; elapsedMs: number; ran: RunRequest }
  | { phase: 'error'; message: string }
  | { phase: 'cancelled' };

export interface RunRequest {
  apl: string;
  start: string;
  end: string;
}

export function useAplRun() {
  const [state, setState] = useState<RunState>({ phase: 'idle' });
  const [elapsedMs, setElapsedMs] = useState(0);
  const controller = useRef<AbortController | undefined>(undefined);

  const run = useCallback(async (request: RunRequest) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    const startedAt = performance.now();
    setElapsedMs(0);
    setState({ phase: 'running', startedAt });
    try {
      const answer = await runApl({ apl: request.apl, startTime: request.start, endTime: request.end, limit: MAX_ROWS }, current.signal);
      if (controller.current !== current) return;
      setState({ phase: 'done', answer, elapsedMs: performance.now() - startedAt, ran: request });
    } catch (error) {
      if (controller.current !== current) return;
      if (current.signal.aborted) setState({ phase: 'cancelled' });
      else setState({ phase: 'error', message: error instanceof ApiError || error instanceof Error ? error.message : String(error) });
    } finally {
      if (controller.current === current) controller.current = undefined;
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);

  useEffect(() => {
    if (state.phase !== 'running') return;
    const timer = setInterval(() => setElapsedMs(performance.now() - state.startedAt), 250);
    return () => clearInterval(timer);
  }, [state]);

  // Leaving the page cancels what runs.
  useEffect(() => () => controller.current?.abort(), []);

  return { state, elapsedMs, run, cancel };
}
