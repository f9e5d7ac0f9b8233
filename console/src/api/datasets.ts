// The datasets area's calls: datasets (v2), their fields, virtual fields, map fields, views,
// trim, file uploads into the ingest API (with upload progress) and ingest-only API tokens.
import { ApiError, apiHeaders } from './client';
import { api } from './client';

export const DATASET_KINDS = ['axiom:events:v1', 'otel:logs:v1', 'otel:traces:v1', 'otel:metrics:v1'] as const;
export const METRICS_KIND = 'otel:metrics:v1';

export interface Dataset {
  id: string;
  name: string;
  description: string;
  who: string;
  created: string;
  updatedAt: string;
  kind: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
  canWrite: boolean;
  mapFields: string[];
}

export interface NewDataset {
  name: string;
  description: string;
  kind: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
}

export type DatasetChanges = Partial<Pick<Dataset, 'description' | 'retentionDays' | 'useRetentionPeriod'>>;

export interface DatasetField {
  name: string;
  type: string;
  unit: string;
  description: string;
  hidden: boolean;
  mapField?: boolean;
  virtual?: boolean;
}

export type FieldChanges = Partial<Pick<DatasetField, 'unit' | 'description' | 'hidden'>>;

export interface VirtualField {
  id: string;
  dataset: string;
  name: string;
  expression: string;
  description: string;
  type: string;
  unit: string;
}

export type VirtualFieldInput = Omit<VirtualField, 'id'>;

export interface View {
  id: string;
  name: string;
  description: string;
  aplQuery: string;
  datasets: string[];
  who: string;
  createdAt: string;
  updatedAt: string;
}

export type ViewInput = Pick<View, 'name' | 'description' | 'aplQuery'>;

const segment = encodeURIComponent;
/** Field names may hold "/" and other characters: each is encoded, the server reads the rest of the path. */
const fieldPath = (name: string) => name.split('/').map(segment).join('/');

export const listDatasets = (signal?: AbortSignal) => api<Dataset[]>('/v2/datasets', signal ? { signal } : {});
export const getDataset = (name: string, signal?: AbortSignal) => api<Dataset>(`/v2/datasets/${segment(name)}`, signal ? { signal } : {});
export const createDataset = (input: NewDataset) => api<Dataset>('/v2/datasets', { body: input });
export const updateDataset = (name: string, changes: DatasetChanges) => api<Dataset>(`/v2/datasets/${segment(name)}`, { method: 'PUT', body: changes });
export const deleteDataset = (name: string) => api<void>(`/v2/datasets/${segment(name)}`, { method: 'DELETE' });
/** Deletes the events older than maxDuration (e.g. "720h", "30d"); answers how many went (v1 answers with the count). */
export const trimDataset = (name: string, maxDuration: string) => api<{ numDeleted: number }>(`/v1/datasets/${segment(name)}/trim`, { body: { maxDuration } });
export const vacuumDataset = (name: string) => api<{ fieldsRemoved: string[] }>(`/v2/datasets/${segment(name)}/vacuum`, { method: 'POST' });

export const listFields = (dataset: string, signal?: AbortSignal) => api<DatasetField[]>(`/v2/datasets/${segment(dataset)}/fields`, signal ? { signal } : {});
export const updateField = (dataset: string, field: string, changes: FieldChanges) =>
  api<DatasetField>(`/v2/datasets/${segment(dataset)}/fields/${fieldPath(field)}`, { method: 'PUT', body: changes });

export const listVirtualFields = (dataset: string, signal?: AbortSignal) => api<VirtualField[]>('/v2/vfields', { params: { dataset }, ...(signal ? { signal } : {}) });
export const createVirtualField = (input: VirtualFieldInput) => api<VirtualField>('/v2/vfields', { body: input });
export const updateVirtualField = (id: string, input: VirtualFieldInput) => api<VirtualField>(`/v2/vfields/${segment(id)}`, { method: 'PUT', body: input });
export const deleteVirtualField = (id: string) => api<void>(`/v2/vfields/${segment(id)}`, { method: 'DELETE' });

export const listMapFields = (dataset: string, signal?: AbortSignal) => api<string[]>(`/v2/datasets/${segment(dataset)}/mapfields`, signal ? { signal } : {});
export const createMapField = (dataset: string, name: string) => api<{ name: string }>(`/v2/datasets/${segment(dataset)}/mapfields`, { body: { name } });
export const replaceMapFields = (dataset: string, names: string[]) => api<string[]>(`/v2/datasets/${segment(dataset)}/mapfields`, { method: 'PUT', body: names });
export const deleteMapField = (dataset: string, name: string) => api<void>(`/v2/datasets/${segment(dataset)}/mapfields/${fieldPath(name)}`, { method: 'DELETE' });

export const listViews = (signal?: AbortSignal) => api<View[]>('/v2/views', signal ? { signal } : {});
export const createView = (input: ViewInput) => api<View>('/v2/views', { body: input });
export const updateView = (id: string, input: ViewInput) => api<View>(`/v2/views/${segment(id)}`, { method: 'PUT', body: input });
export const deleteView = (id: string) => api<void>(`/v2/views/${segment(id)}`, { method: 'DELETE' });

export interface CreatedToken {
  id: string;
  name: string;
  token: string;
  datasetCapabilities: Record<string, Record<string, string[]>>;
}

/** A new API token that may only ingest into the dataset (its secret comes back once, here). */
export const createIngestToken = (dataset: string, name: string) =>
  api<CreatedToken>('/v2/tokens', {
    body: { name, description: `Ingest into ${dataset} only`, datasetCapabilities: { [dataset]: { ingest: ['create'] } } },
  });

export interface IngestFailure {
  timestamp: string;
  error: string;
  /** The event's position in the request, from 0. */
  index?: number;
}

export interface IngestStatus {
  ingested: number;
  failed: number;
  failures: IngestFailure[];
  processedBytes: number;
  blocksCreated: number;
  walLength: number;
}

export interface UploadOptions {
  contentType: string;
  timestampField?: string;
  timestampFormat?: string;
  csvDelimiter?: string;
  /** JSON object text added to every event (X-Axiom-Event-Labels). */
  labels?: string;
  onProgress(sent: number, total: number): void;
  signal?: AbortSignal;
}

/**
 * Sends a file to the dataset's ingest endpoint with XMLHttpRequest, whose upload events report
 * progress (fetch cannot report an upload's progress).
 */
export function uploadFile(dataset: string, file: Blob, options: UploadOptions): Promise<IngestStatus> {
  const params = new URLSearchParams();
  if (options.timestampField) params.set('timestamp-field', options.timestampField);
  if (options.timestampFormat) params.set('timestamp-format', options.timestampFormat);
  if (options.csvDelimiter) params.set('csv-delimiter', options.csvDelimiter);
  const query = params.toString();
  const url = `/v1/datasets/${segment(dataset)}/ingest${query ? `?${query}` : ''}`;
  const headers = apiHeaders('POST', { 'content-type': options.contentType });
  if (options.labels?.trim()) headers['x-axiom-event-labels'] = options.labels.trim();

  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => options.onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300 && body) {
        options.onProgress(file.size, file.size);
        resolve(body as IngestStatus);
        return;
      }
      const answer = body as { message?: string; error?: string; code?: unknown } | undefined;
      const message = answer?.message ?? answer?.error ?? `${request.status} ${request.statusText}`;
      reject(new ApiError(message, request.status, typeof answer?.code === 'string' ? answer.code : undefined));
    };
    request.onerror = () => reject(new ApiError('The upload failed: the connection to the server was lost', 0));
    request.onabort = () => reject(new ApiError('Upload cancelled', 0, 'aborted'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
