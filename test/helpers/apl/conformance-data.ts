// The fixed events of the conformance table, and plain-JS helpers that compute expected
// answers from them without touching the engine.
import type { FieldType } from '../../../src/fields/types';

export interface HttpEvent {
  _time: string;
  _rowId: bigint;
  status?: number;
  method?: string;
  uri?: string;
  duration?: number;
  user?: string;
  'geo.city'?: string;
  'geo.country'?: string;
  tags?: unknown;
  meta?: Record<string, unknown>;
  is_tls?: boolean;
  resp_bytes?: number;
  message?: string;
  Status?: string;
}

export const HTTP_FIELDS: { name: string; type: FieldType }[] = [
  { name: 'status', type: 'integer' },
  { name: 'method', type: 'string' },
  { name: 'uri', type: 'string' },
  { name: 'duration', type: 'float' },
  { name: 'user', type: 'string' },
  { name: 'geo.city', type: 'string' },
  { name: 'geo.country', type: 'string' },
  { name: 'tags', type: 'array' },
  { name: 'meta', type: 'array' },
  { name: 'is_tls', type: 'boolean' },
  { name: 'resp_bytes', type: 'integer' },
  { name: 'message', type: 'string' },
  // Differs from `status` only by case: a separate field, in a separate column.
  { name: 'Status', type: 'string' },
];

export const HTTP_EVENTS: HttpEvent[] = [
  { _time: '2024-04-30T00:05:00Z', _rowId: 101n, status: 200, method: 'GET', uri: '/api/v1/users', duration: 12.5, user: 'alice', 'geo.city': 'Berlin', 'geo.country': 'DE', tags: ['web', 'prod'], meta: { region: 'eu', 'user-agent': 'curl/8.0', n: 1 }, is_tls: true, resp_bytes: 512, message: 'GET /api/v1/users ok', Status: 'OK' },
  { _time: '2024-04-30T00:40:00.250Z', _rowId: 102n, status: 201, method: 'POST', uri: '/api/v1/users', duration: 48.25, user: 'bob', 'geo.city': 'Paris', 'geo.country': 'FR', tags: ['web'], meta: { region: 'eu', n: 2 }, is_tls: true, resp_bytes: 2048, message: 'created user bob' },
  { _time: '2024-04-30T01:10:00Z', _rowId: 103n, status: 404, method: 'GET', uri: '/static/app.js', duration: 3, user: 'carol', 'geo.city': 'Berlin', 'geo.country': 'DE', tags: ['static'], meta: { region: 'eu', n: 3 }, is_tls: false, resp_bytes: 0, message: 'not found: /static/app.js' },
  { _time: '2024-04-30T02:00:00Z', _rowId: 104n, status: 500, method: 'GET', uri: '/api/v2/orders', duration: 950.75, user: 'alice', 'geo.city': 'New York', 'geo.country': 'US', tags: ['api', 'prod'], meta: { region: 'us', n: 4 }, is_tls: true, resp_bytes: 128, message: 'Internal error in OrderService' },
  { _time: '2024-04-30T02:30:00.000000001Z', _rowId: 105n, status: 503, method: 'PUT', uri: '/api/v2/orders/17', duration: 1200, user: 'dave', 'geo.city': 'Tokyo', 'geo.country': 'JP', tags: ['api'], meta: { region: 'ap', n: 5 }, is_tls: true, resp_bytes: 64, message: 'Service unavailable' },
  { _time: '2024-04-30T03:15:00Z', _rowId: 106n, status: 200, method: 'GET', uri: '/home', duration: 7.5, user: 'erin', 'geo.city': 'Paris', 'geo.country': 'FR', tags: [], meta: { region: 'eu', n: 6 }, is_tls: false, resp_bytes: 4096, message: 'home page' },
  { _time: '2024-04-30T03:45:00Z', _rowId: 107n, status: 302, method: 'GET', uri: '/login?next=%2Fhome', duration: 2.25, user: 'bob', 'geo.city': 'Paris', 'geo.country': 'FR', tags: ['auth'], meta: { region: 'eu', n: 7 }, is_tls: true, resp_bytes: 256, message: 'redirect to login' },
  { _time: '2024-04-30T04:20:00Z', _rowId: 108n, status: 200, method: 'DELETE', uri: '/api/v1/users/9', duration: 33, user: 'alice', 'geo.city': 'Berlin', 'geo.country': 'DE', tags: ['api', 'admin'], meta: { region: 'eu', n: 8 }, is_tls: true, resp_bytes: 32, message: 'deleted user 9' },
  { _time: '2024-04-30T05:00:00Z', _rowId: 109n, status: 401, method: 'POST', uri: '/api/v1/login', duration: 15, user: 'mallory', 'geo.city': 'Moscow', 'geo.country': 'RU', tags: ['auth', 'api'], meta: { region: 'eu', n: 9 }, is_tls: true, resp_bytes: 96, message: 'Unauthorized: bad password' },
  { _time: '2024-04-30T05:05:00Z', _rowId: 110n, status: 200, method: 'GET', uri: '/api/v1/users', duration: 10, user: 'frank', 'geo.city': 'Berlin', 'geo.country': 'DE', tags: ['web'], meta: { region: 'eu', n: 10 }, is_tls: true, resp_bytes: 1536, message: 'GET /api/v1/users ok', Status: 'ok' },
  { _time: '2024-04-30T06:00:00Z', _rowId: 111n, status: 200, method: 'GET', uri: '/metrics', user: 'prometheus', tags: ['internal'], is_tls: false, resp_bytes: 8192, message: 'metrics scrape' },
  { _time: '2024-04-30T07:30:00Z', _rowId: 112n, status: 500, method: 'POST', uri: '/api/v2/orders', duration: 640.5, user: 'carol', 'geo.city': 'Sydney', 'geo.country': 'AU', tags: ['api'], meta: { region: 'ap', n: 12 }, is_tls: true, resp_bytes: 128, message: 'Internal error: timeout talking to db' },
  { _time: '2024-04-30T08:00:00Z', _rowId: 113n, status: 204, method: 'OPTIONS', uri: '/api/v1/users', duration: 0.5, 'geo.city': 'Berlin', 'geo.country': 'DE', meta: { region: 'eu', n: 13 }, is_tls: true, resp_bytes: 0, message: 'preflight' },
  { _time: '2024-04-30T09:10:00Z', _rowId: 114n, status: 200, method: 'GET', uri: '/api/v1/Users', duration: 21, user: 'Alice', 'geo.city': 'berlin', 'geo.country': 'DE', tags: ['web', 'prod'], meta: { region: 'eu', n: 14 }, is_tls: true, resp_bytes: 700, message: 'GET /api/v1/Users ok' },
];

export const USER_FIELDS: { name: string; type: FieldType }[] = [
  { name: 'user', type: 'string' },
  { name: 'team', type: 'string' },
  { name: 'level', type: 'integer' },
];

export const USER_EVENTS = [
  { _time: '2024-04-30T00:00:00Z', _rowId: 201n, user: 'alice', team: 'core', level: 3 },
  { _time: '2024-04-30T00:00:01Z', _rowId: 202n, user: 'bob', team: 'web', level: 2 },
  { _time: '2024-04-30T00:00:02Z', _rowId: 203n, user: 'carol', team: 'core', level: 1 },
  { _time: '2024-04-30T00:00:03Z', _rowId: 204n, user: 'alice', team: 'ops', level: 5 },
  { _time: '2024-04-30T00:00:04Z', _rowId: 205n, user: 'zed', team: 'none', level: 0 },
];

export const ms = (iso: string) => Date.parse(iso);
/** ISO 8601 the way the engine prints whole seconds and milliseconds. */
export const iso = (millis: number) => new Date(millis).toISOString().replace(/\.?0+Z$/, 'Z');

export function groupBy<T>(items: T[], key: (item: T) => unknown): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = JSON.stringify(key(item) ?? null);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(item);
  }
  return groups;
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
export const mean = (values: number[]) => sum(values) / values.length;

export function sampleVariance(values: number[]): number {
  const m = mean(values);
  return sum(values.map((v) => (v - m) ** 2)) / (values.length - 1);
}

/** Nearest-rank percentile: the smallest value with at least p% of values at or below it. */
export function nearestRank(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** Kusto terms: maximal runs of letters and digits. */
export const terms = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
export const hasTerm = (text: string | undefined, term: string, caseSensitive = false) =>
  text !== undefined && terms(text).some((t) => (caseSensitive ? t === term : t.toLowerCase() === term.toLowerCase()));
