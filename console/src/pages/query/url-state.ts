// The page's whole state lives in the URL's search (the organization is in the path), so a link
// shows someone else the same query, time range, time zone and view.
export type TimeZoneChoice = 'local' | 'UTC';
export type ResultsView = 'table' | 'events';

export interface QueryState {
  apl: string;
  /** `now-1h` and the like, or RFC 3339. */
  start: string;
  end: string;
  tz: TimeZoneChoice;
  view: ResultsView;
}

export const DEFAULT_STATE: Omit<QueryState, 'apl'> = { start: 'now-1h', end: 'now', tz: 'local', view: 'table' };

export function stateFromSearch(search: URLSearchParams): QueryState {
  return {
    apl: search.get('apl') ?? '',
    start: search.get('start') || DEFAULT_STATE.start,
    end: search.get('end') || DEFAULT_STATE.end,
    tz: search.get('tz') === 'UTC' ? 'UTC' : 'local',
    view: search.get('view') === 'events' ? 'events' : 'table',
  };
}

export function searchFromState(state: QueryState): URLSearchParams {
  const search = new URLSearchParams();
  if (state.apl) search.set('apl', state.apl);
  search.set('start', state.start);
  search.set('end', state.end);
  search.set('tz', state.tz);
  search.set('view', state.view);
  return search;
}
