// How one value of a result reads in the grid and the event panel: times in the chosen zone,
// objects as compact JSON, and row-wide `field=value` text for the events view. Only visible
// rows are formatted, when they are drawn.
import type { ResultTable } from '../../api/query';
import { formatWallTime } from './time-range';
import type { TimeZoneChoice } from './url-state';

export const TIME_FIELD = '_time';

export function formatTime(value: unknown, zone: TimeZoneChoice): string {
  if (typeof value !== 'string' && typeof value !== 'number') return formatValue(value);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  // Keep sub-millisecond digits the server sent (RFC 3339 with nanoseconds).
  const fraction = typeof value === 'string' ? /\.(\d{4,9})/.exec(value)?.[1] : undefined;
  const text = formatWallTime(date, zone, true);
  // Digits past milliseconds only when they say something (…123000000 reads as …123).
  const digits = fraction?.replace(/0+$/, '');
  return digits && digits.length > 3 ? `${text.slice(0, -4)}.${digits}` : text;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

export function formatCell(field: string, type: string, value: unknown, zone: TimeZoneChoice): string {
  return field === TIME_FIELD || type === 'datetime' ? formatTime(value, zone) : formatValue(value);
}

/** Fields the server adds (`_sysTime`, `_rowId`) come after the event's own. */
const isSystemField = (name: string) => name.startsWith('_');

/** `field=value` text of named values: the event's own fields first, cut at `maxLength` characters. */
export function compactText(entries: Iterable<[string, unknown]>, maxLength = 400): string {
  const own: string[] = [];
  const system: string[] = [];
  let ownLength = 0;
  for (const [name, value] of entries) {
    // Enough of the event's own fields to fill the line: the rest would not show.
    if (ownLength > maxLength) break;
    if (name === TIME_FIELD || value === null || value === undefined) continue;
    const shown = formatValue(value);
    const pair = `${name}=${/\s/.test(shown) || shown === '' ? JSON.stringify(shown) : shown}`;
    if (isSystemField(name)) system.push(pair);
    else {
      own.push(pair);
      ownLength += pair.length + 1;
    }
  }
  const text = [...own, ...system].join(' ');
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

/** `field=value` pairs of a row for the events view. */
export function compactEventText(table: ResultTable, row: number, maxLength = 400): string {
  function* entries(): Generator<[string, unknown]> {
    for (let i = 0; i < table.fields.length; i++) yield [table.fields[i]!.name, table.columns[i]?.[row]];
  }
  return compactText(entries(), maxLength);
}
