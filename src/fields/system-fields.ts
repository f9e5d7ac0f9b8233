// The fields every dataset has, set by the server rather than by events: `_time` (event time,
// nanoseconds kept), `_sysTime` (receive time) and `_rowId` (monotonic across the store, assigned
// at ingest; with `_time` it totally orders events and makes query cursors stable).
import type { StoredField } from './schema';

export const TIME_FIELD = '_time';
export const SYS_TIME_FIELD = '_sysTime';
export const ROW_ID_FIELD = '_rowId';
export const SYSTEM_FIELDS = [TIME_FIELD, SYS_TIME_FIELD, ROW_ID_FIELD] as const;

/** The system fields as a schema lists them, first, under their own names. */
export const SYSTEM_STORED_FIELDS: readonly StoredField[] = [
  { name: TIME_FIELD, column: TIME_FIELD, type: 'datetime' },
  { name: SYS_TIME_FIELD, column: SYS_TIME_FIELD, type: 'datetime' },
  { name: ROW_ID_FIELD, column: ROW_ID_FIELD, type: 'integer' },
];

export function isSystemField(name: string): boolean {
  return name === TIME_FIELD || name === SYS_TIME_FIELD || name === ROW_ID_FIELD;
}
