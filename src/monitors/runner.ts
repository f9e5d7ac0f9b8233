// Runs one monitor once: queries its window through the APL engine (as the monitor's
// organization, within the query time budget), evaluates the result for its type, and commits in
// ONE relational transaction the alerts' new state, the history entries, the notifications for
// the outbox and the next run time. A crash before that commit leaves the run due, so it runs
// again; a crash after it leaves the notifications in the outbox: none is lost or decided twice.
import type { Logger } from 'pino';
import type { QueryResult } from '../apl';
import type { Principal } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { DomainError } from '../errors';
import type { QueryService } from '../queries/query-service';
import { type AlertChange, type AlertStates, advanceAlerts, alertName } from './alerts';
import { anomalyObservations } from './evaluation/anomaly';
import { emptyMatchMemory, MATCH_QUERY_LIMIT, type MatchMemory, matchedEvents, selectMatches } from './evaluation/match';
import { thresholdObservations } from './evaluation/threshold';
import { msToNanos } from './go-time';
import { newCheckId, newNotificationId } from './ids';
import { type MonitorRecord, monitorRecord } from './monitors';
import { groupText, incidentKey, type Notification } from './notification';
import type { Clock } from './clock';
import { daysMs, nextRun, type RunWindow, runToDo } from './schedule';

export interface RunOutcome {
  /** Milliseconds between when the run was due and when it started. */
  startDelayMs: number;
  notifications: number;
  error?: string;
}

interface Decided {
  alerts?: AlertStates;
  matched?: MatchMemory;
  history: { checkId: string; name: string; state: 'open' | 'closed'; alertKey: string; detail: string }[];
  notifications: Notification[];
}

/** Who a monitor's query runs as: its organization, with the right to query its datasets and views. */
function monitorPrincipal(monitor: MonitorRecord): Principal {
  return {
    tokenId: `monitor:${monitor.id}`,
    kind: 'api',
    orgId: monitor.orgId,
    userId: monitor.createdBy,
    datasetCapabilities: { '*': { query: ['read'] } },
    orgCapabilities: {},
    viewCapabilities: { '*': { query: ['read'] } },
  };
}

export class MonitorRunner {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly queries: QueryService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Called after a run committed notifications to the outbox. */
    private readonly notified: () => void = () => {},
  ) {}

  /** Runs the monitor for the run that was due at `dueAt` (or the latest one missed since). */
  async run(monitorId: string, dueAt: number): Promise<RunOutcome | undefined> {
    const started = this.clock.now();
    const stopwatch = performance.now();
    const row = await this.prisma.monitor.findUnique({ where: { id: monitorId }, include: { state: true } });
    if (!row || !row.state) return undefined;
    const monitor = monitorRecord(row);
    if (monitor.disabled) return undefined;
    if (monitor.disabledUntil && monitor.disabledUntil.getTime() > started) {
      // Paused: resume with the first run due after the pause, by itself.
      const resumeAt = nextRun(monitor.id, monitor, monitor.disabledUntil.getTime() - 1).dueAt;
      await this.prisma.monitorState.update({ where: { monitorId }, data: { nextRunAt: new Date(resumeAt) } });
      return undefined;
    }
    const window = runToDo(monitor.id, monitor, dueAt, started);
    const next = nextRun(monitor.id, monitor, Math.max(started, window.dueAt));
    const checkId = newCheckId();
    let decided: Decided = { history: [], notifications: [] };
    let error: string | undefined;
    try {
      decided = await this.evaluate(monitor, row.state, window, checkId, new Date(started));
    } catch (caught) {
      if (caught instanceof DomainError) error = caught.message;
      else {
        this.logger.error({ err: caught, monitorId }, 'monitor run failed');
        error = 'internal error while running the monitor';
      }
    }
    const outbox = await this.outboxRows(monitor, decided.notifications, new Date(started));
    const writes = [
      this.prisma.monitorState.update({
        where: { monitorId },
        data: {
          nextRunAt: new Date(next.dueAt),
          lastScheduledAt: new Date(window.dueAt),
          lastRunAt: new Date(started),
          lastDurationMs: Math.round(performance.now() - stopwatch),
          lastError: error ?? outbox.warning ?? null,
          ...(decided.alerts ? { alerts: JSON.stringify(decided.alerts) } : {}),
          ...(decided.matched ? { matched: JSON.stringify(decided.matched) } : {}),
        },
      }),
      ...(decided.history.length > 0
        ? [this.prisma.monitorHistory.createMany({ data: decided.history.map((entry) => ({ monitorId, ...entry, timestamp: new Date(started) })) })]
        : []),
      ...(outbox.pending.length > 0 ? [this.prisma.notificationOutbox.createMany({ data: outbox.pending })] : []),
      ...(outbox.skipped.length > 0 ? [this.prisma.notifierDelivery.createMany({ data: outbox.skipped })] : []),
    ];
    try {
      await this.prisma.$transaction(writes);
    } catch (caught) {
      // Deleted while it ran: nothing to record.
      if (!(await this.prisma.monitorState.findUnique({ where: { monitorId }, select: { monitorId: true } }))) return undefined;
      throw caught;
    }
    if (outbox.pending.length > 0) this.notified();
    return { startDelayMs: started - window.dueAt, notifications: outbox.pending.length, ...(error ? { error } : {}) };
  }

  private async query(monitor: MonitorRecord, window: { startMs: number; endMs: number }, limit?: number): Promise<QueryResult> {
    return this.queries.apl(monitorPrincipal(monitor), {
      apl: monitor.aplQuery,
      startTime: new Date(window.startMs).toISOString(),
      endTime: new Date(window.endMs).toISOString(),
      ...(limit !== undefined ? { limit } : {}),
    });
  }

  private async evaluate(monitor: MonitorRecord, state: { alerts: string; matched: string }, window: RunWindow, checkId: string, now: Date): Promise<Decided> {
    const base = (action: 'Open' | 'Closed', fields: Partial<Notification>): Notification => ({
      id: newNotificationId(),
      action,
      reason: 'threshold',
      monitor: { id: monitor.id, name: monitor.name, description: monitor.description, type: monitor.type },
      alertName: monitor.name,
      body: '',
      value: 0,
      queryStartNanos: msToNanos(window.startMs).toString(),
      queryEndNanos: msToNanos(window.endMs).toString(),
      timestamp: now.toISOString(),
      matchedEvent: null,
      groupKeys: null,
      groupValues: null,
      incidentKey: monitor.id,
      ...fields,
    });

    if (monitor.type === 'MatchEvent') {
      const result = await this.query(monitor, window, MATCH_QUERY_LIMIT);
      const memory = { ...emptyMatchMemory(), ...(JSON.parse(state.matched) as Partial<MatchMemory>) };
      const { notify, memory: matched } = selectMatches(memory, matchedEvents(result), {
        now: now.getTime(),
        windowStartMs: window.startMs,
      });
      const notifications = notify.map((match) =>
        base('Open', {
          reason: 'match',
          body: JSON.stringify(match.event),
          matchedEvent: match.event,
          incidentKey: monitor.resolvable ? incidentKey(monitor.id, `event:${match.rowId}`) : monitor.id,
        }),
      );
      const history = notify.map((match) => ({ checkId, name: monitor.name, state: 'open' as const, alertKey: `event:${match.rowId}`, detail: '' }));
      return { matched, history, notifications };
    }

    const previous = JSON.parse(state.alerts) as AlertStates;
    let observations;
    if (monitor.type === 'Threshold') {
      const result = await this.query(monitor, window);
      observations = thresholdObservations(result, {
        operator: monitor.operator!,
        threshold: monitor.threshold ?? 0,
        columnName: monitor.columnName,
        notifyByGroup: monitor.notifyByGroup,
        alertOnNoData: monitor.alertOnNoData,
      });
    } else {
      const shift = monitor.compareDays ? daysMs(monitor.compareDays) : window.endMs - window.startMs;
      const [current, baseline] = [
        await this.query(monitor, window),
        await this.query(monitor, { startMs: window.startMs - shift, endMs: window.endMs - shift }),
      ];
      observations = anomalyObservations(current, baseline, {
        operator: monitor.operator!,
        tolerance: monitor.tolerance ?? 10,
        columnName: monitor.columnName,
        notifyByGroup: monitor.notifyByGroup,
        alertOnNoData: monitor.alertOnNoData,
      });
    }
    const { states, changes } = advanceAlerts(previous, observations, monitor, now);
    const named = (change: AlertChange) => alertName(monitor.name, { ...change.observation });
    // A message by group names its group, so the person paged knows which one fired.
    const told = ({ observation }: AlertChange) => {
      const group = groupText(observation.groupKeys, observation.groupValues);
      return group ? `${group}: ${observation.body}` : observation.body;
    };
    return {
      alerts: states,
      history: changes
        .filter((change) => change.transition)
        .map((change) => ({ checkId, name: named(change), state: change.transition!, alertKey: change.key, detail: change.observation.body })),
      notifications: changes
        .filter((change) => change.notify)
        .map((change) =>
          base(change.notify!, {
            reason: change.observation.reason,
            alertName: named(change),
            body: told(change),
            value: change.observation.value,
            groupKeys: change.observation.groupKeys,
            groupValues: change.observation.groupValues,
            incidentKey: incidentKey(monitor.id, change.key),
          }),
        ),
    };
  }

  /** One outbox row per notification and notifier; notifiers paused by disabledUntil log a skip. */
  private async outboxRows(monitor: MonitorRecord, notifications: Notification[], now: Date) {
    const pending: {
      id: string;
      orgId: string;
      monitorId: string;
      notifierId: string;
      payload: string;
      nextAttemptAt: Date;
    }[] = [];
    const skipped: {
      notifierId: string;
      outboxId: string;
      monitorId: string;
      action: string;
      attempt: number;
      outcome: string;
      error: string;
      durationMs: number;
      attemptedAt: Date;
    }[] = [];
    if (notifications.length === 0 || monitor.notifierIds.length === 0) return { pending, skipped, warning: undefined };
    const notifiers = await this.prisma.notifier.findMany({
      where: { orgId: monitor.orgId, id: { in: monitor.notifierIds } },
      select: { id: true, disabledUntil: true },
    });
    const missing = monitor.notifierIds.filter((id) => !notifiers.some((notifier) => notifier.id === id));
    for (const notification of notifications) {
      for (const notifier of notifiers) {
        const id = newNotificationId();
        if (notifier.disabledUntil && notifier.disabledUntil > now) {
          skipped.push({
            notifierId: notifier.id,
            outboxId: id,
            monitorId: monitor.id,
            action: notification.action,
            attempt: 0,
            outcome: 'skipped',
            error: `the notifier is disabled until ${notifier.disabledUntil.toISOString()}`,
            durationMs: 0,
            attemptedAt: now,
          });
          continue;
        }
        pending.push({ id, orgId: monitor.orgId, monitorId: monitor.id, notifierId: notifier.id, payload: JSON.stringify(notification), nextAttemptAt: now });
      }
    }
    const warning = missing.length > 0 ? `notifier ${missing.join(', ')} no longer exists; its notifications were not sent` : undefined;
    return { pending, skipped, warning };
  }
}
