// Anomaly monitors compare the query's value now with what it was before. The expected value
// of a group is the mean of its points in the comparison window: the same window `compareDays`
// days earlier when set (daily or weekly seasonality), otherwise the window just before the
// current one. The current value is the mean of its points now. The run is positive when the
// current value leaves the band expected ± tolerance% of expected (Above: over it, Below:
// under it, AboveOrBelow: either). A group without comparison data is not judged.
import type { QueryResult } from '../../apl';
import type { Observation } from '../alerts';
import type { Operator } from '../monitor-definitions';
import { formatValue } from '../notification';
import { NO_DATA_KEY, noDataObservation } from './threshold';
import { byGroup, valueRows } from './rows';

export interface AnomalyRule {
  operator: Operator;
  tolerance: number;
  columnName: string | null;
  notifyByGroup: boolean;
  alertOnNoData: boolean;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export function expectedBand(expected: number, tolerancePercent: number): { low: number; high: number } {
  const width = (Math.abs(expected) * tolerancePercent) / 100;
  return { low: expected - width, high: expected + width };
}

export function anomalyObservations(current: QueryResult, baseline: QueryResult, rule: AnomalyRule): Observation[] {
  const now = valueRows(current, rule.columnName);
  const before = valueRows(baseline, rule.columnName);
  const byGroups = rule.notifyByGroup && now.groupKeys.length > 0;
  const baselineGroups = byGroup(before.rows);
  const judged: Observation[] = [];
  for (const [key, rows] of byGroup(now.rows)) {
    const value = mean(rows.flatMap((row) => row.values));
    const history = baselineGroups.get(key);
    const groupKeys = now.groupKeys.length > 0 ? now.groupKeys : null;
    const groupValues = now.groupKeys.length > 0 ? rows[0]!.groupValues : null;
    if (!history) {
      judged.push({ key, positive: false, reason: 'anomaly', value, body: `The value ${formatValue(value)} has no comparison data yet`, groupKeys, groupValues });
      continue;
    }
    const expected = mean(history.flatMap((row) => row.values));
    const band = expectedBand(expected, rule.tolerance);
    const above = value > band.high;
    const below = value < band.low;
    const positive = rule.operator === 'Above' ? above : rule.operator === 'Below' ? below : above || below;
    const where = above ? 'above' : below ? 'below' : 'within';
    judged.push({
      key,
      positive,
      reason: 'anomaly',
      value,
      body: `The value ${formatValue(value)} is ${where} the expected range ${formatValue(band.low)} to ${formatValue(band.high)} (expected ${formatValue(expected)})`,
      groupKeys,
      groupValues,
    });
  }
  if (byGroups) {
    return [noDataObservation(NO_DATA_KEY, now.rows.length > 0, rule.alertOnNoData), ...judged.map((o) => ({ ...o, key: `group:${o.key}` }))];
  }
  if (now.rows.length === 0) return [noDataObservation('', false, rule.alertOnNoData)];
  // One alert for the monitor: positive when any group is; it reports that group's value.
  const chosen = judged.find((o) => o.positive) ?? judged[0]!;
  return [{ ...chosen, key: '', groupKeys: null, groupValues: null }];
}
