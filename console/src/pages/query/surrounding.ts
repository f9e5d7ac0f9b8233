// The events just before and after one event in its dataset, merged in time order with the
// event itself marked, for the event panel.
import { MAX_ROWS, rowAt, rowCount, runApl, type TabularAnswer } from '../../api/query';
import { surroundingQueries } from './apl-text';

export interface SurroundingEvent {
  row: Record<string, unknown>;
  isChosen: boolean;
}

const DAY_MS = 86_400_000;
/** How far around the event to look. */
const WINDOW_MS = 30 * DAY_MS;

function rowsOf(answer: TabularAnswer): Record<string, unknown>[] {
  const table = answer.tables[0];
  if (!table) return [];
  return Array.from({ length: rowCount(table) }, (_, index) => rowAt(table, index));
}

function sameEvent(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a._rowId !== undefined && b._rowId !== undefined) return a._rowId === b._rowId;
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function surroundingEvents(dataset: string, event: Record<string, unknown>, signal?: AbortSignal): Promise<SurroundingEvent[]> {
  const time = String(event._time);
  const at = new Date(time).getTime();
  if (Number.isNaN(at)) throw new Error('This event has no _time to look around.');
  const queries = surroundingQueries(dataset, time);
  const window = (from: number, to: number) => ({ startTime: new Date(from).toISOString(), endTime: new Date(to).toISOString(), limit: Math.min(100, MAX_ROWS) });
  const [before, after] = await Promise.all([
    runApl({ apl: queries.before, ...window(at - WINDOW_MS, at + 1) }, signal),
    runApl({ apl: queries.after, ...window(at, at + WINDOW_MS) }, signal),
  ]);
  const earlier = rowsOf(before).reverse();
  const later = rowsOf(after);
  const merged = [...earlier, ...later].map((row) => ({ row, isChosen: sameEvent(row, event) }));
  // The event itself, if the window missed it (it always is at or before its own time).
  if (!merged.some((entry) => entry.isChosen)) merged.splice(earlier.length, 0, { row: event, isChosen: true });
  return merged;
}
