// Starred (saved) APL queries of the organization, through the server's v2 REST API.
import { api } from './client';

export interface StarredQuery {
  id: string;
  kind: 'apl';
  name: string;
  who: string;
  query: { apl: string; startTime?: string; endTime?: string };
  createdAt: string;
}

/** Everyone's starred queries in the organization, newest first as the server orders them. */
export function listStarredQueries(signal?: AbortSignal): Promise<StarredQuery[]> {
  return api<StarredQuery[]>('/v2/apl-starred-queries', { params: { who: 'all' }, ...(signal ? { signal } : {}) });
}

export function starQuery(name: string, query: StarredQuery['query']): Promise<StarredQuery> {
  return api<StarredQuery>('/v2/apl-starred-queries', { body: { kind: 'apl', name, query } });
}
