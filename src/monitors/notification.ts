// A notification as decided by a monitor run and kept in the outbox until each notifier has
// delivered it. Channels turn it into their services' payloads at delivery time.
import { createHash } from 'node:crypto';
import { goTimeString } from './go-time';
import type { TemplateData } from './delivery/template';

export type AlertReason = 'threshold' | 'noData' | 'anomaly' | 'match';

export interface Notification {
  /** Shared by the copies of this notification sent to each notifier. */
  id: string;
  action: 'Open' | 'Closed';
  reason: AlertReason;
  monitor: { id: string; name: string; description: string; type: string };
  /** The alert's name: the monitor's, plus its group for alerts by group. */
  alertName: string;
  body: string;
  /** The value that opened or closed the alert; 0 when there is none (match, no data). */
  value: number;
  /** The query window, nanoseconds since the epoch (decimal text). */
  queryStartNanos: string;
  queryEndNanos: string;
  /** When the run decided the notification (RFC 3339). */
  timestamp: string;
  matchedEvent: Record<string, unknown> | null;
  groupKeys: string[] | null;
  groupValues: unknown[] | null;
  /** Identifies the alert in incident tools (PagerDuty dedup_key, Opsgenie alias): Open and Closed share it. */
  incidentKey: string;
}

/** A stable short key for an alert of a monitor (its group, a matched event). */
export function incidentKey(monitorId: string, alertKey: string): string {
  if (alertKey === '') return monitorId;
  return `${monitorId}-${createHash('sha256').update(alertKey).digest('hex').slice(0, 16)}`;
}

/** The variables a custom webhook template sees, as Axiom names and formats them. */
export function templateData(notification: Notification): TemplateData {
  return {
    Action: notification.action,
    MonitorID: notification.monitor.id,
    // The alert's name: the monitor's, with the group for alerts by group.
    Title: notification.alertName,
    Description: notification.monitor.description,
    Body: notification.body,
    Value: notification.value,
    QueryStartTime: goTimeString(BigInt(notification.queryStartNanos)),
    QueryEndTime: goTimeString(BigInt(notification.queryEndNanos)),
    Timestamp: goTimeString(BigInt(Date.parse(notification.timestamp)) * 1_000_000n, false),
    MatchedEvent: notification.matchedEvent,
    GroupKeys: notification.groupKeys,
    GroupValues: notification.groupValues,
  };
}

/** A one-line title for chat and mail: `[Open] High error rate (service=api)`. */
export function headline(notification: Notification): string {
  return `[${notification.action}] ${notification.alertName}`;
}

/** Group keys and values as `a=x, b=y`. */
export function groupText(keys: string[] | null, values: unknown[] | null): string {
  if (!keys || !values) return '';
  return keys.map((key, i) => `${key}=${typeof values[i] === 'string' ? values[i] : JSON.stringify(values[i])}`).join(', ');
}

/** Numbers in messages: integers as they are, others with up to 6 significant digits. */
export function formatValue(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}
