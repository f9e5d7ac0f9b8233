// The datasets a live tail can follow: the organization's event datasets (metrics datasets are
// queried with MPL and are not tailed).
import { api } from './client';

export interface DatasetSummary {
  name: string;
  description?: string;
  kind: string;
}

const METRICS_KIND = 'otel:metrics:v1';

export async function listEventDatasets(signal?: AbortSignal): Promise<DatasetSummary[]> {
  const datasets = await api<DatasetSummary[]>('/v2/datasets', signal ? { signal } : {});
  return datasets.filter((dataset) => dataset.kind !== METRICS_KIND).sort((a, b) => a.name.localeCompare(b.name));
}
