// The ingest API's event limit, applied by every shipper's reader as it reads: a body with more
// events than one request may carry is refused whole before any of it is stored.
import type { EventVisitor, RawEvent } from '../ingest/parse-body';
import { tooManyEvents } from '../ingest/parse-body';
import { MAX_EVENTS_PER_REQUEST } from '../ingest/limits';

/** Wraps a visitor so that the event past the limit throws 413; `count()` says how many passed. */
export function countingVisitor(visit: EventVisitor): { visit: (event: RawEvent, size?: number) => void; count: () => number } {
  let count = 0;
  return {
    visit(event, size) {
      if (count === MAX_EVENTS_PER_REQUEST) throw tooManyEvents(`more than ${MAX_EVENTS_PER_REQUEST}`);
      count++;
      visit(event, size);
    },
    count: () => count,
  };
}
