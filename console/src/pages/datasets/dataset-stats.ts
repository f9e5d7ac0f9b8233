// How many events a dataset holds and the time of its newest, counted with APL over all time
// (the datasets API does not report sizes).
import { rowAt, runApl } from '../../api/query';
import { datasetRef } from '../query/apl-text';

export interface DatasetStats {
  events: number;
  /** RFC 3339, absent when the dataset is empty. */
  latest?: string;
}

export async function loadDatasetStats(dataset: string, signal?: AbortSignal): Promise<DatasetStats> {
  const answer = await runApl({ apl: `${datasetRef(dataset)} | summarize events = count(), latest = max(_time)` }, signal);
  const table = answer.tables[0];
  const row = table && table.columns[0]?.length ? rowAt(table, 0) : {};
  const events = Number(row.events ?? 0);
  return { events, ...(events > 0 && typeof row.latest === 'string' ? { latest: row.latest } : {}) };
}
