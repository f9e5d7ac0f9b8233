// How one event reads on a single line: its time in the viewer's zone or in UTC, and its fields
// as compact `name=value` pairs with the message-like field first.
const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `2024-05-01 14:03:07.123` from an RFC 3339 time, in UTC or the browser's zone; unparsable text is kept. */
export function formatTime(time: string, utc: boolean): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return time;
  const parts = utc
    ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()]
    : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()];
  const [year, month, day, hours, minutes, seconds, millis] = parts as [number, number, number, number, number, number, number];
  return `${year}-${pad(month)}-${pad(day)} ${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(millis, 3)}`;
}

const MESSAGE_FIELDS = ['message', 'msg', 'body', 'log', 'text'];
const VALUE_LIMIT = 300;

function valueText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT)}…` : text;
}

export interface FieldPair {
  name: string;
  value: string;
}

/** The fields of an event in display order: the message first, then the others as they came. */
export function compactFields(data: Record<string, unknown>): FieldPair[] {
  const names = Object.keys(data).filter((name) => data[name] !== null && data[name] !== undefined);
  const message = MESSAGE_FIELDS.find((name) => names.includes(name) && typeof data[name] === 'string');
  const ordered = message ? [message, ...names.filter((name) => name !== message)] : names;
  return ordered.map((name) => ({ name, value: valueText(data[name]) }));
}

/** The event as the panel shows and copies it: Axiom's system fields, then its own. */
export function eventJson(event: { time: string; sysTime: string; rowId: string; data: Record<string, unknown> }): string {
  return JSON.stringify({ _time: event.time, _sysTime: event.sysTime, _rowId: event.rowId, ...event.data }, null, 2);
}
