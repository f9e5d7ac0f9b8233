// Monitors and notifiers from the console: the v2 REST API for definitions (the same bodies any
// client sends), GraphQL where one request should bring a monitor's status and history with it,
// the backtest behind the editor's preview, and a notifier's delivery log and test notification.
import { api, graphql } from './client';

export const MONITOR_TYPES = ['Threshold', 'MatchEvent', 'AnomalyDetection'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
export const OPERATORS = ['Below', 'BelowOrEqual', 'Above', 'AboveOrEqual', 'AboveOrBelow'] as const;
export type Operator = (typeof OPERATORS)[number];

/** The fields of POST/PUT /v2/monitors. */
export interface MonitorInput {
  name: string;
  description: string;
  type: MonitorType;
  aplQuery: string;
  operator?: Operator;
  threshold?: number;
  columnName?: string;
  intervalMinutes: number;
  rangeMinutes: number;
  alertOnNoData: boolean;
  notifyByGroup: boolean;
  notifyEveryRun: boolean;
  resolvable: boolean;
  skipResolved: boolean;
  disabled: boolean;
  disabledUntil: string | null;
  notifierIds: string[];
  triggerFromNRuns: number;
  triggerAfterNPositiveResults: number;
  secondDelay: number;
  tolerance?: number;
  compareDays?: number;
}

/** A monitor as GET /v2/monitors/{id} answers. */
export interface Monitor extends MonitorInput {
  id: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

export interface OpenAlert {
  name: string;
  since: string;
  groupKeys: string[] | null;
  groupValues: unknown[] | null;
}

export interface MonitorStatus {
  state: 'open' | 'closed';
  openAlerts: OpenAlert[];
  nextRunAt: string | null;
  lastScheduledAt: string | null;
  lastRunAt: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
}

export interface HistoryEntry {
  name: string;
  checkId: string;
  timestamp: string;
  state: 'open' | 'closed';
}

/** A monitor with its status and its alert transitions of a period, as the list shows it. */
export interface MonitorOverview {
  monitorId: string;
  name: string;
  description: string;
  type: MonitorType;
  intervalMinutes: number;
  disabled: boolean;
  disabledUntil: string | null;
  notifierIds: string[];
  datasets: string[];
  createdAt: string;
  status: MonitorStatus;
  history: HistoryEntry[];
}

const STATUS_FIELDS = 'state openAlerts { name since groupKeys groupValues } nextRunAt lastScheduledAt lastRunAt lastDurationMs lastError';

/** Every monitor the caller may see, with its status and alert transitions since `since`. */
export async function listMonitorOverviews(since: Date, until: Date, signal?: AbortSignal): Promise<MonitorOverview[]> {
  const data = await graphql<{
    monitors: { edges: { node: Omit<MonitorOverview, 'history'> & { history: { edges: { node: HistoryEntry }[] } } }[] };
  }>(
    `query Monitors($start: DateTime!, $end: DateTime!) {
      monitors(first: 100) { edges { node {
        monitorId name description type intervalMinutes disabled disabledUntil notifierIds datasets createdAt
        status { ${STATUS_FIELDS} }
        history(startTime: $start, endTime: $end, last: 100) { edges { node { name checkId timestamp state } } }
      } } }
    }`,
    { start: since.toISOString(), end: until.toISOString() },
    signal,
  );
  return data.monitors.edges.map(({ node }) => ({ ...node, history: node.history.edges.map((edge) => edge.node) }));
}

export function getMonitor(id: string, signal?: AbortSignal): Promise<Monitor> {
  return api<Monitor>(`/v2/monitors/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

export async function getMonitorStatus(id: string, signal?: AbortSignal): Promise<MonitorStatus> {
  const data = await graphql<{ monitor: { status: MonitorStatus } | null }>(
    `query MonitorStatus($id: String!) { monitor(id: $id) { status { ${STATUS_FIELDS} } } }`,
    { id },
    signal,
  );
  if (!data.monitor) throw new Error(`monitor "${id}" not found`);
  return data.monitor.status;
}

export function getMonitorHistory(id: string, startTime: Date, endTime: Date, signal?: AbortSignal): Promise<HistoryEntry[]> {
  return api<HistoryEntry[]>(`/v2/monitors/${encodeURIComponent(id)}/history`, {
    params: { startTime: startTime.toISOString(), endTime: endTime.toISOString() },
    ...(signal ? { signal } : {}),
  });
}

export function createMonitor(input: MonitorInput): Promise<Monitor> {
  return api<Monitor>('/v2/monitors', { body: input });
}

export function updateMonitor(id: string, input: MonitorInput): Promise<Monitor> {
  return api<Monitor>(`/v2/monitors/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
}

export function deleteMonitor(id: string): Promise<void> {
  return api<void>(`/v2/monitors/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The editable fields of a saved monitor (what PUT takes back). */
export function inputOf(monitor: Monitor): MonitorInput {
  const { id: _id, createdAt: _createdAt, createdBy: _createdBy, updatedAt: _updatedAt, ...input } = monitor;
  return input;
}

export interface BacktestRun {
  dueAt: string;
  startTime: string;
  endTime: string;
  positive: boolean;
  value: number | null;
  opened: string[];
  closed: string[];
  notifications: number;
  error?: string;
}

export interface BacktestResult {
  startTime: string;
  endTime: string;
  runs: BacktestRun[];
}

/** Replays the definition over [startTime, endTime] (RFC 3339); `monitorId` uses a saved monitor's schedule. */
export function backtestMonitor(input: MonitorInput, startTime: string, endTime: string, monitorId?: string, signal?: AbortSignal): Promise<BacktestResult> {
  return api<BacktestResult>('/v2/monitors/backtest', {
    body: { ...input, startTime, endTime, ...(monitorId ? { monitorId } : {}) },
    ...(signal ? { signal } : {}),
  });
}

export const CHANNELS = ['webhook', 'customWebhook', 'slack', 'discordWebhook', 'discord', 'microsoftTeams', 'pagerduty', 'opsgenie', 'email'] as const;
export type ChannelName = (typeof CHANNELS)[number];

/** A notifier as /v2/notifiers answers: one channel in `properties`, secrets masked. */
export interface Notifier {
  id: string;
  name: string;
  properties: Partial<Record<ChannelName, Record<string, unknown>>>;
  disabledUntil?: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

export interface NotifierInput {
  name: string;
  properties: Partial<Record<ChannelName, Record<string, unknown>>>;
  disabledUntil: string | null;
}

export interface Delivery {
  id: number;
  notificationId: string;
  monitorId: string;
  action: string;
  attempt: number;
  outcome: 'delivered' | 'retrying' | 'failed' | 'skipped' | string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
  test: boolean;
}

export function channelOf(notifier: Pick<Notifier, 'properties'>): ChannelName | undefined {
  return Object.keys(notifier.properties)[0] as ChannelName | undefined;
}

export function listNotifiers(signal?: AbortSignal): Promise<Notifier[]> {
  return api<Notifier[]>('/v2/notifiers', signal ? { signal } : {});
}

export function createNotifier(input: NotifierInput): Promise<Notifier> {
  return api<Notifier>('/v2/notifiers', { body: input });
}

export function updateNotifier(id: string, input: NotifierInput): Promise<Notifier> {
  return api<Notifier>(`/v2/notifiers/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
}

export function deleteNotifier(id: string): Promise<void> {
  return api<void>(`/v2/notifiers/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function listDeliveries(id: string, options: { limit?: number; before?: number } = {}, signal?: AbortSignal): Promise<Delivery[]> {
  return api<Delivery[]>(`/v2/notifiers/${encodeURIComponent(id)}/deliveries`, { params: options, ...(signal ? { signal } : {}) });
}

export function sendTestNotification(id: string): Promise<{ notificationId: string }> {
  return api<{ notificationId: string }>(`/v2/notifiers/${encodeURIComponent(id)}/test`, { method: 'POST' });
}
