// The address of a trace's page: /<org>/traces/<trace id>?dataset=…&start=…&end=…, the time
// range bounding the lookup. Relative bounds (`now-1h`) are carried as they are and pinned to
// absolute times by the trace page when it opens.
import { TRACE_ID_FIELDS } from '../../api/traces';

export interface TraceTarget {
  traceId: string;
  dataset?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
}

const HOUR_MS = 3_600_000;

/** A path under the console's base (/app), as react-router's links take it. */
export function tracePath(org: string, target: TraceTarget): string {
  const search = new URLSearchParams();
  if (target.dataset) search.set('dataset', target.dataset);
  if (target.start) search.set('start', target.start);
  if (target.end) search.set('end', target.end);
  const query = search.toString();
  return `/${encodeURIComponent(org)}/traces/${encodeURIComponent(target.traceId.toLowerCase())}${query ? `?${query}` : ''}`;
}

/** An hour either side of an event's time, when a page has no range of its own. */
export function rangeAround(time: unknown, marginMs = HOUR_MS): { start: string; end: string } | undefined {
  if (typeof time !== 'string' && typeof time !== 'number') return undefined;
  const at = new Date(time).getTime();
  if (Number.isNaN(at)) return undefined;
  return { start: new Date(at - marginMs).toISOString(), end: new Date(at + marginMs).toISOString() };
}

/** A value that can be a trace id: hexadecimal, as OpenTelemetry writes them (W3C: 32 digits). */
export function isTraceId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-fA-F]{8,64}$/.test(value) && !/^0+$/.test(value);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS, w: 7 * 24 * HOUR_MS };
const RELATIVE = /^now(?:\s*([+-])\s*(\d+)\s*(ms|s|m|h|d|w))?$/;

/** A range bound as an RFC 3339 time: `now`, `now-2h` (and `now+…`) from `now`; others as they are. */
export function absoluteBound(value: string, now: number): string {
  const match = RELATIVE.exec(value.trim());
  if (!match) return value;
  const offset = match[1] ? Number(match[2]) * UNIT_MS[match[3]!]! * (match[1] === '-' ? -1 : 1) : 0;
  return new Date(now + offset).toISOString();
}

export function isAbsoluteBound(value: string): boolean {
  return !RELATIVE.test(value.trim()) && !Number.isNaN(new Date(value).getTime());
}

/** A field that holds trace ids (`trace_id` as OTLP writes it, and the usual other spellings). */
export function isTraceIdField(name: string): boolean {
  return (TRACE_ID_FIELDS as readonly string[]).includes(name);
}
