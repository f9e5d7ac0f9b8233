// The state machine of threshold and anomaly alerts. Each alert (the whole monitor, one group
// with notifyByGroup, or "no data") remembers its last runs' outcomes; it opens when at least
// `triggerAfterNPositiveResults` of the last `triggerFromNRuns` runs were positive and closes
// when fewer were. Each transition is one history entry and one notification; while open,
// `notifyEveryRun` notifies again on every positive run, and a threshold crossing after a
// no-data alert notifies even though the alert stays open (crossings take precedence).
import { groupText, type AlertReason } from './notification';

export interface AlertState {
  open: boolean;
  /** Why it is open (or was last positive). */
  reason: AlertReason;
  /** Outcomes of the latest runs, oldest first, at most `triggerFromNRuns` of them. */
  recent: boolean[];
  groupKeys: string[] | null;
  groupValues: unknown[] | null;
  /** When it opened (RFC 3339), while open. */
  since?: string;
}

export type AlertStates = Record<string, AlertState>;

/** One alert's outcome in a run. */
export interface Observation {
  key: string;
  positive: boolean;
  reason: AlertReason;
  value: number;
  /** What happened, in words, for the notification body. */
  body: string;
  groupKeys: string[] | null;
  groupValues: unknown[] | null;
}

export interface AlertRules {
  triggerFromNRuns: number;
  triggerAfterNPositiveResults: number;
  notifyEveryRun: boolean;
  skipResolved: boolean;
}

export interface AlertChange {
  key: string;
  /** A history entry when the alert opened or closed. */
  transition?: 'open' | 'closed';
  /** A notification to send. */
  notify?: 'Open' | 'Closed';
  observation: Observation;
}

/** The name of an alert in history and messages. */
export function alertName(monitorName: string, state: Pick<AlertState, 'groupKeys' | 'groupValues' | 'reason'>): string {
  const group = groupText(state.groupKeys, state.groupValues);
  if (group) return `${monitorName} (${group})`;
  return monitorName;
}

/**
 * Applies one run's observations. Alerts that were tracked but got no observation (a group the
 * query no longer returns) count as negative, with value 0.
 */
export function advanceAlerts(
  previous: AlertStates,
  observations: Observation[],
  rules: AlertRules,
  now: Date,
): { states: AlertStates; changes: AlertChange[] } {
  const byKey = new Map(observations.map((observation) => [observation.key, observation]));
  for (const [key, state] of Object.entries(previous)) {
    if (byKey.has(key)) continue;
    byKey.set(key, {
      key,
      positive: false,
      reason: state.reason,
      value: 0,
      body: state.groupKeys ? 'The query no longer returns this group' : 'The query no longer returns a value',
      groupKeys: state.groupKeys,
      groupValues: state.groupValues,
    });
  }
  const states: AlertStates = {};
  const changes: AlertChange[] = [];
  for (const [key, observation] of byKey) {
    const before = previous[key];
    const recent = [...(before?.recent ?? []), observation.positive].slice(-rules.triggerFromNRuns);
    const positives = recent.filter(Boolean).length;
    const shouldBeOpen = positives >= rules.triggerAfterNPositiveResults;
    const wasOpen = before?.open ?? false;
    const reason = observation.positive ? observation.reason : (before?.reason ?? observation.reason);
    const next: AlertState = {
      open: shouldBeOpen,
      reason,
      recent,
      groupKeys: observation.groupKeys ?? before?.groupKeys ?? null,
      groupValues: observation.groupValues ?? before?.groupValues ?? null,
      ...(shouldBeOpen ? { since: wasOpen && before?.since ? before.since : now.toISOString() } : {}),
    };
    if (!wasOpen && shouldBeOpen) {
      changes.push({ key, transition: 'open', notify: 'Open', observation });
    } else if (wasOpen && !shouldBeOpen) {
      changes.push({ key, transition: 'closed', ...(rules.skipResolved ? {} : { notify: 'Closed' as const }), observation });
    } else if (wasOpen && shouldBeOpen && observation.positive) {
      const crossedAfterNoData = before?.reason === 'noData' && observation.reason !== 'noData';
      if (rules.notifyEveryRun || crossedAfterNoData) changes.push({ key, notify: 'Open', observation });
    }
    // Forget alerts that are closed and have nothing positive left to count.
    if (next.open || recent.some(Boolean)) states[key] = next;
  }
  return { states, changes };
}

/** The open alerts of a monitor, for its status. */
export function openAlerts(monitorName: string, states: AlertStates) {
  return Object.values(states)
    .filter((state) => state.open)
    .map((state) => ({ name: alertName(monitorName, state), since: state.since ?? '', groupKeys: state.groupKeys, groupValues: state.groupValues }));
}
