// The datasets of the organization and the fields of each, for completion (REST
// `GET /v2/datasets` and `GET /v2/datasets/{id}/fields`). Each answer is kept for a short while
// per organization, so typing does not ask the server again and again, yet new fields show up.
import { activeOrgId, api } from '../api/client';

export interface FieldInfo {
  name: string;
  type: string;
  description?: string;
  hidden?: boolean;
}

/** How long an answer is reused. */
const FRESH_MS = 60_000;

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

const cache = new Map<string, Cached<unknown>>();

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const scoped = `${activeOrgId() ?? ''}\u0000${key}`;
  const hit = cache.get(scoped) as Cached<T> | undefined;
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.value;
  const value = load();
  cache.set(scoped, { at: Date.now(), value });
  // A failure is not remembered.
  value.catch(() => cache.delete(scoped));
  return value;
}

export function datasetNames(): Promise<string[]> {
  return cached('datasets', async () => (await api<{ name: string }[]>('/v2/datasets')).map((dataset) => dataset.name).sort());
}

export function datasetFields(dataset: string): Promise<FieldInfo[]> {
  return cached(`fields\u0000${dataset}`, () => api<FieldInfo[]>(`/v2/datasets/${encodeURIComponent(dataset)}/fields`));
}
