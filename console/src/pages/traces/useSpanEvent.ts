// Reads the whole event of the span whose details are open (attributes, resource, links): the
// waterfall's query leaves them out so 10,000 spans draw quickly. Another span, or closing the
// details, aborts what was loading.
import { useEffect, useState } from 'react';
import { fetchSpanEvent, type TraceRange } from '../../api/traces';

export type SpanEventState =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  /** `event` is undefined when the span is no longer stored. */
  | { phase: 'done'; event: Record<string, unknown> | undefined };

export function useSpanEvent(dataset: string, traceId: string, spanId: string, range: TraceRange): SpanEventState {
  const [state, setState] = useState<SpanEventState>({ phase: 'loading' });
  const { start, end } = range;
  useEffect(() => {
    const controller = new AbortController();
    setState({ phase: 'loading' });
    fetchSpanEvent(dataset, traceId, spanId, { start, end }, controller.signal).then(
      (event) => !controller.signal.aborted && setState({ phase: 'done', event }),
      (error: unknown) => !controller.signal.aborted && setState({ phase: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => controller.abort();
  }, [dataset, traceId, spanId, start, end]);
  return state;
}
