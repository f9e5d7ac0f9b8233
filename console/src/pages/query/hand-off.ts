// How the Query page hands its query to another page ("Add to dashboard", "Create monitor"): the
// APL and time range as URL parameters, so the receiving page works from a link as well.
export interface HandedQuery {
  apl: string;
  start: string;
  end: string;
}

export function handOffSearch(query: HandedQuery): string {
  return new URLSearchParams({ apl: query.apl, start: query.start, end: query.end }).toString();
}

/** The query another page was handed, if its URL carries one. */
export function handedQuery(search: URLSearchParams): HandedQuery | undefined {
  const apl = search.get('apl');
  if (!apl) return undefined;
  return { apl, start: search.get('start') ?? 'now-1h', end: search.get('end') ?? 'now' };
}
