// Threshold monitors: a run is positive when any value of the query's result crosses the
// threshold (any point of a chart, any number of a table). The reported value is the most
// extreme one in the operator's direction. With notifyByGroup each group of the query's
// non-time group-by fields is its own alert; without data, alertOnNoData opens a no-data alert.
import type { QueryResult } from '../../apl';
import type { Observation } from '../alerts';
import type { Operator } from '../monitor-definitions';
import { formatValue } from '../notification';
import { byGroup, valueRows } from './rows';

const WORDS: Record<Exclude<Operator, 'AboveOrBelow'>, string> = {
  Above: 'above',
  AboveOrEqual: 'above or equal to',
  Below: 'below',
  BelowOrEqual: 'below or equal to',
};

export function crosses(value: number, operator: Operator, threshold: number): boolean {
  switch (operator) {
    case 'Above':
      return value > threshold;
    case 'AboveOrEqual':
      return value >= threshold;
    case 'Below':
      return value < threshold;
    case 'BelowOrEqual':
      return value <= threshold;
    default:
      return value !== threshold;
  }
}

/** The value closest to crossing (or furthest past it): the maximum for Above, the minimum for Below. */
function extreme(values: number[], operator: Operator): number {
  return operator.startsWith('Below') ? Math.min(...values) : Math.max(...values);
}

export interface ThresholdRule {
  operator: Operator;
  threshold: number;
  columnName: string | null;
  notifyByGroup: boolean;
  alertOnNoData: boolean;
}

export const NO_DATA_KEY = 'nodata';

export function noDataObservation(key: string, hasData: boolean, alertOnNoData: boolean): Observation {
  return {
    key,
    positive: !hasData && alertOnNoData,
    reason: 'noData',
    value: 0,
    body: hasData ? 'The query returns data again' : 'The query returned no data',
    groupKeys: null,
    groupValues: null,
  };
}

export function thresholdObservations(result: QueryResult, rule: ThresholdRule): Observation[] {
  const { groupKeys, rows } = valueRows(result, rule.columnName);
  const word = WORDS[rule.operator as keyof typeof WORDS] ?? 'past';
  const observe = (key: string, values: number[], keys: string[] | null, groupValues: unknown[] | null): Observation => {
    const value = extreme(values, rule.operator);
    const positive = crosses(value, rule.operator, rule.threshold);
    return {
      key,
      positive,
      reason: 'threshold',
      value,
      body: `The value ${formatValue(value)} is ${positive ? '' : 'not '}${word} the threshold ${formatValue(rule.threshold)}`,
      groupKeys: keys,
      groupValues,
    };
  };
  const byGroups = rule.notifyByGroup && groupKeys.length > 0;
  if (!byGroups) {
    if (rows.length === 0) return [noDataObservation('', false, rule.alertOnNoData)];
    return [observe('', rows.flatMap((row) => row.values), null, null)];
  }
  const observations: Observation[] = [noDataObservation(NO_DATA_KEY, rows.length > 0, rule.alertOnNoData)];
  for (const [key, groupRows] of byGroup(rows)) {
    observations.push(observe(`group:${key}`, groupRows.flatMap((row) => row.values), groupKeys, groupRows[0]!.groupValues));
  }
  return observations;
}
