// Dashboards from the console: the v2 REST API (`/v2/dashboards`, stored whole with a version
// every write raises), the query batch that runs all charts of a dashboard in one request and
// streams each answer as it finishes, and annotations added from a chart.
import { api, ApiError, apiHeaders } from './client';
import type { Annotation, AplRequest, TabularAnswer } from './query';

/** The dashboard document as stored: known fields typed, anything else kept as loaded. */
export interface DashboardDocument {
  name: string;
  owner: string;
  description?: string;
  charts: DashboardChart[];
  layout: LayoutItem[];
  refreshTime: number;
  schemaVersion: 2;
  timeWindowStart: string;
  timeWindowEnd: string;
  against?: string;
  againstTimestamp?: string;
  [other: string]: unknown;
}

export interface DashboardChart {
  id: string;
  type: string;
  name?: string;
  query?: { apl?: string; mpl?: string; [other: string]: unknown };
  [other: string]: unknown;
}

export interface LayoutItem {
  i: string;
  x: number;
  y: number | null;
  w: number;
  h: number;
  [other: string]: unknown;
}

export interface DashboardResource {
  id: string;
  uid: string;
  version: number;
  dashboard: DashboardDocument;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
}

export interface DashboardWrite {
  status: 'created' | 'updated';
  dashboard: DashboardResource;
  overwritten?: boolean;
}

/** A save that met someone else's newer version: `currentVersion` is the stored one. */
export class VersionConflict extends Error {
  constructor(
    message: string,
    readonly currentVersion: number | undefined,
  ) {
    super(message);
    this.name = 'VersionConflict';
  }
}

export function listDashboards(): Promise<DashboardResource[]> {
  return api<DashboardResource[]>('/v2/dashboards', { params: { limit: 1000 } });
}

export function getDashboard(uid: string): Promise<DashboardResource> {
  return api<DashboardResource>(`/v2/dashboards/uid/${encodeURIComponent(uid)}`);
}

export async function createDashboard(dashboard: DashboardDocument): Promise<DashboardResource> {
  const written = await api<DashboardWrite>('/v2/dashboards', { body: { dashboard } });
  return written.dashboard;
}

/** Saves over `version` (the one loaded); a newer stored version throws VersionConflict unless overwriting. */
export async function saveDashboard(uid: string, dashboard: DashboardDocument, version: number, overwrite = false): Promise<DashboardResource> {
  try {
    const written = await api<DashboardWrite>(`/v2/dashboards/uid/${encodeURIComponent(uid)}`, {
      method: 'PUT',
      body: overwrite ? { dashboard, overwrite: true } : { dashboard, version },
    });
    return written.dashboard;
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) throw new VersionConflict(error.message, await storedVersion(uid));
    throw error;
  }
}

async function storedVersion(uid: string): Promise<number | undefined> {
  try {
    return (await getDashboard(uid)).version;
  } catch {
    return undefined;
  }
}

export function deleteDashboard(uid: string): Promise<void> {
  return api<void>(`/v2/dashboards/uid/${encodeURIComponent(uid)}`, { method: 'DELETE' });
}

export type BatchOutcome =
  | { queryId: string; kind: 'apl'; data: TabularAnswer }
  | { queryId: string; kind: 'mpl'; data: unknown }
  | { queryId: string; kind: 'apl' | 'mpl'; error: { code: number; message: string } };

export interface BatchEntry {
  queryId: string;
  aplRequest: AplRequest;
}

/**
 * Runs the queries as one batch (`POST /v1/query/batch`), calling `onOutcome` with each answer as
 * the server streams it (in the order they finish).
 */
export async function runQueryBatch(entries: BatchEntry[], onOutcome: (outcome: BatchOutcome) => void, signal?: AbortSignal): Promise<void> {
  if (entries.length === 0) return;
  const headers = apiHeaders('POST', { 'content-type': 'application/json', accept: 'text/event-stream' });
  const response = await fetch('/v1/query/batch', {
    method: 'POST',
    headers,
    body: JSON.stringify(entries),
    credentials: 'same-origin',
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.json()) as { message?: string; error?: string };
      message = body.message ?? body.error ?? message;
    } catch {
      // Not JSON: keep the status line.
    }
    throw new ApiError(message, response.status);
  }
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) pending += decoder.decode(value, { stream: !done });
    let boundary = pending.indexOf('\n\n');
    while (boundary >= 0) {
      const event = pending.slice(0, boundary);
      pending = pending.slice(boundary + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) onOutcome(JSON.parse(data) as BatchOutcome);
      boundary = pending.indexOf('\n\n');
    }
    if (done) return;
  }
}

export interface NewAnnotation {
  type: string;
  datasets: string[];
  title?: string;
  description?: string;
  url?: string;
  time: string;
  endTime?: string;
}

export function createAnnotation(annotation: NewAnnotation): Promise<Annotation> {
  return api<Annotation>('/v2/annotations', { body: annotation });
}

/** What a monitor list chart shows of each monitor (`GET /v2/monitors`). */
export interface MonitorSummary {
  id: string;
  name: string;
  type: string;
  disabled?: boolean;
  description?: string;
  [other: string]: unknown;
}

export function listMonitorSummaries(): Promise<MonitorSummary[]> {
  return api<MonitorSummary[]>('/v2/monitors');
}
