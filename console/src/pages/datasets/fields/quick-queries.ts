// The APL of a field's quick chart, written from the field's name with the names quoted: top
// values, number statistics and a histogram between the smallest and largest value (buckets
// named by their offset from the smallest), and the
// count of events holding the field over time.
import { datasetRef, fieldRef } from '../../query/apl-text';

export function topValuesQuery(dataset: string, field: string, count = 10): string {
  const ref = fieldRef(field);
  return `${datasetRef(dataset)} | where isnotnull(${ref}) | summarize events = count() by value = tostring(${ref}) | top ${count} by events`;
}

export function numberStatsQuery(dataset: string, field: string): string {
  const ref = fieldRef(field);
  return (
    `${datasetRef(dataset)} | where isnotnull(${ref}) | extend v = todouble(${ref})` +
    ' | summarize events = count(), minimum = min(v), average = avg(v), p50 = percentile(v, 50), p90 = percentile(v, 90), p99 = percentile(v, 99), maximum = max(v)'
  );
}

export function histogramQuery(dataset: string, field: string, minimum: number, width: number): string {
  const ref = fieldRef(field);
  return `${datasetRef(dataset)} | where isnotnull(${ref}) | extend bucket = bin(todouble(${ref}) - (${minimum}), ${width}) | summarize events = count() by bucket | sort by bucket asc`;
}

export function countOverTimeQuery(dataset: string, field: string): string {
  const where = field === '_time' ? '' : ` | where isnotnull(${fieldRef(field)})`;
  return `${datasetRef(dataset)}${where} | summarize count() by bin_auto(_time)`;
}

/** A histogram's bucket width: the range split into about `buckets` parts (1 when all values are equal). */
export function bucketWidth(minimum: number, maximum: number, buckets = 20): number {
  const span = maximum - minimum;
  return span > 0 ? span / buckets : 1;
}
