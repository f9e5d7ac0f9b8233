// Deterministic events for the ingest benchmark: twelve fields of the usual kinds (strings,
// integers, a float, a boolean, a nested object) plus `_time`, as NDJSON bodies and as the
// already-typed rows DuckDB's appender takes directly.

const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
const REGIONS = ['eu-west-1', 'us-east-1', 'ap-south-1'];
const LEVELS = ['info', 'info', 'info', 'warn', 'error'];
const STATUSES = [200, 200, 200, 201, 204, 301, 404, 500, 503];

export const BENCH_START_MS = Date.parse('2024-01-01T00:00:00Z');

/** A small fast PRNG so every run sends the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchEvent {
  _time: string;
  method: string;
  uri: string;
  status: number;
  duration: number;
  user: string;
  req: { host: string; ip: string; bytes: number };
  ok: boolean;
  region: string;
  level: string;
  traceId: string;
}

export function makeEvents(count: number, seed = 1): BenchEvent[] {
  const next = random(seed);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const status = pick(STATUSES);
    return {
      _time: new Date(BENCH_START_MS + i * 37).toISOString(),
      method: pick(METHODS),
      uri: `/api/v1/items/${Math.floor(next() * 5000)}`,
      status,
      duration: Math.round(next() * 250_000) / 1000,
      user: `user${Math.floor(next() * 20_000)}`,
      req: { host: `web-${Math.floor(next() * 8)}.example.com`, ip: `10.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}`, bytes: Math.floor(next() * 100_000) },
      ok: status < 400,
      region: pick(REGIONS),
      level: pick(LEVELS),
      traceId: Math.floor(next() * 2 ** 52).toString(16).padStart(13, '0'),
    };
  });
}

export function ndjsonBody(events: BenchEvent[]): Buffer {
  return Buffer.from(`${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
}

/** Splits events into NDJSON bodies of `batchSize` events. */
export function ndjsonBatches(events: BenchEvent[], batchSize: number): Buffer[] {
  const bodies: Buffer[] = [];
  for (let offset = 0; offset < events.length; offset += batchSize) bodies.push(ndjsonBody(events.slice(offset, offset + batchSize)));
  return bodies;
}

/** Column order and DuckDB types of the table the raw appender fills. */
export const RAW_COLUMNS: [string, string][] = [
  ['_time', 'TIMESTAMP_NS'],
  ['_sysTime', 'TIMESTAMP_NS'],
  ['_rowId', 'BIGINT'],
  ['method', 'VARCHAR'],
  ['uri', 'VARCHAR'],
  ['status', 'BIGINT'],
  ['duration', 'DOUBLE'],
  ['user', 'VARCHAR'],
  ['req.host', 'VARCHAR'],
  ['req.ip', 'VARCHAR'],
  ['req.bytes', 'BIGINT'],
  ['ok', 'BOOLEAN'],
  ['region', 'VARCHAR'],
  ['level', 'VARCHAR'],
  ['traceId', 'VARCHAR'],
];

export type TypedRow = [bigint, bigint, bigint, string, string, bigint, number, string, string, string, bigint, boolean, string, string, string];

/** The same events, typed as their columns hold them (what a parser would hand the appender). */
export function typedRows(events: BenchEvent[]): TypedRow[] {
  const sysTime = BigInt(Date.now()) * 1_000_000n;
  return events.map((event, i) => [
    BigInt(Date.parse(event._time)) * 1_000_000n,
    sysTime,
    BigInt(i + 1),
    event.method,
    event.uri,
    BigInt(event.status),
    event.duration,
    event.user,
    event.req.host,
    event.req.ip,
    BigInt(event.req.bytes),
    event.ok,
    event.region,
    event.level,
    event.traceId,
  ]);
}

/** `count` events as NDJSON bodies of `batchSize`, their times spread evenly over `spanMs` from `startMs`. */
export function spreadBodies(count: number, batchSize: number, startMs: number, spanMs: number): string[] {
  const bodies: string[] = [];
  for (let offset = 0, batch = 0; offset < count; offset += batchSize, batch++) {
    const events = makeEvents(Math.min(batchSize, count - offset), batch + 1);
    events.forEach((event, i) => (event._time = new Date(startMs + Math.floor(((offset + i) * spanMs) / count)).toISOString()));
    bodies.push(ndjsonBody(events).toString());
  }
  return bodies;
}

/** Posts NDJSON bodies to a dataset's ingest route one after the other; throws unless every event was stored. */
export async function ingestBodies(url: string, token: string, dataset: string, bodies: readonly string[]): Promise<void> {
  for (const body of bodies) {
    const response = await fetch(`${url}/v1/datasets/${dataset}/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    const status = (await response.json()) as { ingested?: number; failed?: number };
    const lines = body.split('\n').length - 1;
    if (!response.ok || status.ingested !== lines) throw new Error(`ingest failed: ${response.status} ${JSON.stringify(status)}`);
  }
}
