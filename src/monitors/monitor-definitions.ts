// What a monitor is: the fields of Axiom's v2 Monitor, their defaults and limits, and the checks
// that need the query's shape (a threshold needs a numeric column, a match monitor needs events).
import { z } from 'zod';
import { invalidInput } from '../errors';
import type { QueryShape } from '../queries/query-service';
import { parseInput } from '../lib/validation';

export const MONITOR_TYPES = ['Threshold', 'MatchEvent', 'AnomalyDetection'] as const;
export const OPERATORS = ['Below', 'BelowOrEqual', 'Above', 'AboveOrEqual', 'AboveOrBelow'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
export type Operator = (typeof OPERATORS)[number];

/** Longest interval, range and comparison a monitor may use. */
const MAX_INTERVAL_MINUTES = 7 * 1440;
const MAX_RANGE_MINUTES = 30 * 1440;
const MAX_RUN_WINDOW = 100;

const wholeNumber = (minimum: number, maximum: number) =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(minimum, `must be at least ${minimum}`)
    .max(maximum, `must be at most ${maximum}`);

const dateTime = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((text) => new Date(text));

const monitorSchema = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(255),
  description: z.string().max(4096).default(''),
  type: z.enum(MONITOR_TYPES, { error: `is required: one of ${MONITOR_TYPES.join(', ')}` }),
  aplQuery: z.string().optional(),
  mplQuery: z.string().optional(),
  operator: z.enum(OPERATORS, { error: `must be one of ${OPERATORS.join(', ')}` }).optional(),
  threshold: z.number({ error: 'must be a number' }).refine(Number.isFinite, 'must be a finite number').optional(),
  columnName: z.string().max(1024).optional(),
  intervalMinutes: wholeNumber(1, MAX_INTERVAL_MINUTES).default(1),
  rangeMinutes: wholeNumber(1, MAX_RANGE_MINUTES).optional(),
  alertOnNoData: z.boolean().default(false),
  notifyByGroup: z.boolean().default(false),
  notifyEveryRun: z.boolean().default(false),
  resolvable: z.boolean().default(false),
  skipResolved: z.boolean().default(false),
  disabled: z.boolean().default(false),
  disabledUntil: z.union([dateTime, z.literal('').transform(() => null), z.null()]).optional(),
  notifierIds: z.array(z.string().min(1).max(128)).max(50).optional(),
  /** The older spelling, still sent by some clients. */
  notifierIDs: z.array(z.string().min(1).max(128)).max(50).optional(),
  triggerFromNRuns: wholeNumber(1, MAX_RUN_WINDOW).optional(),
  triggerAfterNPositiveResults: wholeNumber(1, MAX_RUN_WINDOW).optional(),
  secondDelay: wholeNumber(0, 86_400).default(0),
  tolerance: z.number({ error: 'must be a number' }).min(0, 'must be at least 0').max(100, 'must be at most 100').optional(),
  compareDays: wholeNumber(0, 7).optional(),
});

/** A monitor's definition as stored and evaluated. */
export interface MonitorDefinition {
  name: string;
  description: string;
  type: MonitorType;
  aplQuery: string;
  operator: Operator | null;
  threshold: number | null;
  columnName: string | null;
  intervalMinutes: number;
  rangeMinutes: number;
  alertOnNoData: boolean;
  notifyByGroup: boolean;
  notifyEveryRun: boolean;
  resolvable: boolean;
  skipResolved: boolean;
  disabled: boolean;
  disabledUntil: Date | null;
  notifierIds: string[];
  triggerFromNRuns: number;
  triggerAfterNPositiveResults: number;
  secondDelay: number;
  tolerance: number | null;
  compareDays: number | null;
}

const fail = (field: string, message: string) => invalidInput(`invalid request body: ${field}: ${message}`);

/** Reads a monitor body, field by field; the query itself is checked by `checkQueryShape`. */
export function parseMonitorInput(body: unknown): MonitorDefinition {
  const input = parseInput(monitorSchema, body);
  if (input.aplQuery === undefined || input.aplQuery.trim() === '') {
    if (input.mplQuery !== undefined && input.mplQuery.trim() !== '') throw fail('mplQuery', 'MPL monitors are not supported by this server; give aplQuery');
    throw fail('aplQuery', 'is required');
  }
  const runWindow = input.triggerFromNRuns ?? input.triggerAfterNPositiveResults ?? 1;
  const positives = input.triggerAfterNPositiveResults ?? 1;
  if (positives > runWindow) {
    throw fail('triggerAfterNPositiveResults', `must be at most triggerFromNRuns (${runWindow}): an alert opens when that many of the last triggerFromNRuns runs are positive`);
  }
  const type = input.type;
  if (type === 'Threshold') {
    if (input.operator === undefined) throw fail('operator', `is required for threshold monitors: one of Below, BelowOrEqual, Above, AboveOrEqual`);
    if (input.operator === 'AboveOrBelow') throw fail('operator', 'AboveOrBelow compares with a band and is for anomaly monitors; threshold monitors use Below, BelowOrEqual, Above or AboveOrEqual');
    if (input.threshold === undefined) throw fail('threshold', 'is required for threshold monitors');
  }
  if (type === 'AnomalyDetection') {
    if (input.operator === undefined) throw fail('operator', 'is required for anomaly monitors: one of Above, Below, AboveOrBelow');
    if (input.operator !== 'Above' && input.operator !== 'Below' && input.operator !== 'AboveOrBelow') {
      throw fail('operator', 'anomaly monitors use Above, Below or AboveOrBelow');
    }
  }
  const notifierIds = [...new Set(input.notifierIds ?? input.notifierIDs ?? [])];
  return {
    name: input.name,
    description: input.description,
    type,
    aplQuery: input.aplQuery,
    operator: input.operator ?? null,
    threshold: input.threshold ?? null,
    columnName: input.columnName?.trim() ? input.columnName.trim() : null,
    intervalMinutes: input.intervalMinutes,
    rangeMinutes: input.rangeMinutes ?? input.intervalMinutes,
    alertOnNoData: input.alertOnNoData,
    notifyByGroup: input.notifyByGroup,
    notifyEveryRun: input.notifyEveryRun,
    resolvable: input.resolvable,
    skipResolved: input.skipResolved,
    disabled: input.disabled,
    disabledUntil: input.disabledUntil ?? null,
    notifierIds,
    triggerFromNRuns: runWindow,
    triggerAfterNPositiveResults: positives,
    secondDelay: input.secondDelay,
    tolerance: type === 'AnomalyDetection' ? (input.tolerance ?? 10) : (input.tolerance ?? null),
    compareDays: input.compareDays ?? null,
  };
}

const NUMERIC_TYPES = new Set(['int', 'real']);

/** The numeric result columns a threshold or anomaly monitor compares (not its groups or time bins). */
export function valueColumns(shape: Pick<QueryShape, 'columns' | 'aggregation'>, columnName: string | null): string[] {
  if (columnName) return [columnName];
  const skip = new Set([...(shape.aggregation?.groupFields ?? []), ...(shape.aggregation?.timeBinField ? [shape.aggregation.timeBinField] : [])]);
  return shape.columns.filter((column) => NUMERIC_TYPES.has(column.type) && !skip.has(column.name)).map((column) => column.name);
}

/** Checks that the query suits the monitor's type. */
export function checkQueryShape(definition: MonitorDefinition, shape: QueryShape): void {
  if (definition.type === 'MatchEvent') {
    if (shape.aggregation || !shape.events) {
      throw fail('aplQuery', 'match monitors notify matching events: filter and shape them with where, extend, parse and project, without summarize or other aggregations');
    }
    return;
  }
  const kind = definition.type === 'Threshold' ? 'threshold' : 'anomaly';
  if (!shape.aggregation) throw fail('aplQuery', `${kind} monitors compare an aggregated value: end the query with summarize (e.g. | summarize count() by bin(_time, 1m))`);
  if (definition.columnName) {
    const column = shape.columns.find((c) => c.name === definition.columnName);
    if (!column) throw fail('columnName', `the query has no column "${definition.columnName}" (it has ${shape.columns.map((c) => c.name).join(', ')})`);
    if (!NUMERIC_TYPES.has(column.type)) throw fail('columnName', `column "${definition.columnName}" is not numeric`);
    return;
  }
  if (valueColumns(shape, null).length === 0) throw fail('aplQuery', `the query has no numeric column for the ${kind} to compare`);
}
