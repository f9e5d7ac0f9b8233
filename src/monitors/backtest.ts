// Backtests a monitor definition before it is saved: replays the runs its schedule would have
// made over a past period, each over its own window, through the same evaluation and alert
// state machine as the scheduler's runs (threshold, anomaly, match), and reports for every run
// whether it was positive and which alerts would have opened or closed. Nothing is stored and
// nothing is notified; the queries run as the caller, so the preview shows only what they may read.
import type { QueryResult } from '../apl';
import type { Principal } from '../auth/principal';
import { requireOrgCapability } from '../auth/principal';
import { DomainError, invalidInput } from '../errors';
import type { QueryService } from '../queries/query-service';
import { type AlertStates, advanceAlerts, alertName, type Observation } from './alerts';
import { anomalyObservations } from './evaluation/anomaly';
import { emptyMatchMemory, MATCH_QUERY_LIMIT, type MatchMemory, matchedEvents, selectMatches } from './evaluation/match';
import { thresholdObservations } from './evaluation/threshold';
import { checkQueryShape, type MonitorDefinition, parseMonitorInput } from './monitor-definitions';
import { daysMs, minutesMs, phase, secondsMs } from './schedule';

/** Runs replayed at most per backtest: each is one query (two for anomaly monitors). */
export const MAX_BACKTEST_RUNS = 240;

export interface BacktestRun {
  /** When the run would have been due (the window's end plus secondDelay). */
  dueAt: string;
  /** Its query window, both ends inclusive. */
  startTime: string;
  endTime: string;
  /** Whether any of its alerts' observations (or any new match) was positive. */
  positive: boolean;
  /** The most extreme value observed (threshold, anomaly), or the number of new matches. */
  value: number | null;
  /** Alerts that would have opened (and notified) in this run, by name. */
  opened: string[];
  /** Alerts that would have closed in this run, by name. */
  closed: string[];
  /** Notifications the run would have sent to each notifier. */
  notifications: number;
  /** Why the run could not evaluate its query, when it could not. */
  error?: string;
}

export interface BacktestResult {
  startTime: string;
  endTime: string;
  runs: BacktestRun[];
}

function timeOf(name: 'startTime' | 'endTime', value: unknown): number {
  if (typeof value !== 'string' || value === '') throw invalidInput(`${name} is required (an RFC 3339 time, e.g. 2024-03-20T15:30:00Z)`);
  const time = Date.parse(value);
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw invalidInput(`${name} must be an RFC 3339 time (got "${value}")`);
  return time;
}

/** The window ends of the runs due within [start, end], on the monitor's grid. */
export function runEnds(definition: MonitorDefinition, monitorId: string | undefined, startMs: number, endMs: number): number[] {
  const interval = minutesMs(definition.intervalMinutes);
  const delay = secondsMs(definition.secondDelay);
  // A monitor not saved yet has no id and so no phase: its runs sit on whole intervals.
  const offset = monitorId ? phase(monitorId, interval) : 0;
  let end = offset + Math.ceil((startMs - delay - offset) / interval) * interval;
  const ends: number[] = [];
  for (; end + delay <= endMs; end += interval) {
    ends.push(end);
    if (ends.length > MAX_BACKTEST_RUNS) {
      const total = Math.floor((endMs - startMs) / interval);
      throw invalidInput(`the period holds about ${total} runs of this monitor; a preview replays at most ${MAX_BACKTEST_RUNS}: shorten the period or lengthen intervalMinutes`);
    }
  }
  return ends;
}

export class MonitorBacktest {
  constructor(private readonly queries: QueryService) {}

  /** `body`: the monitor's fields as for POST /v2/monitors, plus `startTime` and `endTime`, and `monitorId` to use a saved monitor's schedule. */
  async run(principal: Principal, body: unknown): Promise<BacktestResult> {
    requireOrgCapability(principal, 'monitors', 'read');
    const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const startMs = timeOf('startTime', fields.startTime);
    const endMs = timeOf('endTime', fields.endTime);
    if (startMs >= endMs) throw invalidInput('startTime must be before endTime');
    const monitorId = typeof fields.monitorId === 'string' && fields.monitorId !== '' ? fields.monitorId : undefined;
    const definition = parseMonitorInput(fields);
    await this.checkQuery(principal, definition);
    const ends = runEnds(definition, monitorId, startMs, endMs);

    let alerts: AlertStates = {};
    let matched: MatchMemory = emptyMatchMemory();
    const runs: BacktestRun[] = [];
    for (const end of ends) {
      const window = { startMs: end - minutesMs(definition.rangeMinutes), endMs: end };
      const dueAt = end + secondsMs(definition.secondDelay);
      const base = { dueAt: new Date(dueAt).toISOString(), startTime: new Date(window.startMs).toISOString(), endTime: new Date(window.endMs).toISOString() };
      try {
        if (definition.type === 'MatchEvent') {
          const result = await this.query(principal, definition, window, MATCH_QUERY_LIMIT);
          const selected = selectMatches(matched, matchedEvents(result), { now: dueAt, windowStartMs: window.startMs });
          matched = selected.memory;
          const count = selected.notify.length;
          runs.push({ ...base, positive: count > 0, value: count, opened: count > 0 ? [definition.name] : [], closed: [], notifications: count });
          continue;
        }
        const observations = await this.observe(principal, definition, window);
        const advanced = advanceAlerts(alerts, observations, definition, new Date(dueAt));
        alerts = advanced.states;
        const name = (change: (typeof advanced.changes)[number]) => alertName(definition.name, { ...change.observation });
        runs.push({
          ...base,
          positive: observations.some((observation) => observation.positive),
          value: mostExtreme(definition, observations),
          opened: advanced.changes.filter((change) => change.transition === 'open').map(name),
          closed: advanced.changes.filter((change) => change.transition === 'closed').map(name),
          notifications: advanced.changes.filter((change) => change.notify).length,
        });
      } catch (caught) {
        if (!(caught instanceof DomainError)) throw caught;
        // As a scheduled run: a query that fails changes no alert.
        runs.push({ ...base, positive: false, value: null, opened: [], closed: [], notifications: 0, error: caught.message });
      }
    }
    return { startTime: new Date(startMs).toISOString(), endTime: new Date(endMs).toISOString(), runs };
  }

  /** The same checks as saving the monitor: its query must parse, be readable and suit its type. */
  private async checkQuery(principal: Principal, definition: MonitorDefinition): Promise<void> {
    let shape;
    try {
      shape = await this.queries.describe(principal, definition.aplQuery);
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'invalid_input' || error.kind === 'not_found')) {
        throw new DomainError('invalid_input', `invalid request body: aplQuery: ${error.message}`, error.details);
      }
      throw error;
    }
    checkQueryShape(definition, shape);
  }

  private async observe(principal: Principal, definition: MonitorDefinition, window: { startMs: number; endMs: number }): Promise<Observation[]> {
    const rule = {
      operator: definition.operator!,
      columnName: definition.columnName,
      notifyByGroup: definition.notifyByGroup,
      alertOnNoData: definition.alertOnNoData,
    };
    if (definition.type === 'Threshold') {
      return thresholdObservations(await this.query(principal, definition, window), { ...rule, threshold: definition.threshold ?? 0 });
    }
    const shift = definition.compareDays ? daysMs(definition.compareDays) : window.endMs - window.startMs;
    const current = await this.query(principal, definition, window);
    const baseline = await this.query(principal, definition, { startMs: window.startMs - shift, endMs: window.endMs - shift });
    return anomalyObservations(current, baseline, { ...rule, tolerance: definition.tolerance ?? 10 });
  }

  private query(principal: Principal, definition: MonitorDefinition, window: { startMs: number; endMs: number }, limit?: number): Promise<QueryResult> {
    return this.queries.apl(principal, {
      apl: definition.aplQuery,
      startTime: new Date(window.startMs).toISOString(),
      endTime: new Date(window.endMs).toISOString(),
      ...(limit !== undefined ? { limit } : {}),
    }) as Promise<QueryResult>;
  }
}

/** The value that matters most among the observations with data: positive ones first. */
function mostExtreme(definition: MonitorDefinition, observations: Observation[]): number | null {
  const withData = observations.filter((observation) => observation.reason !== 'noData');
  const pool = withData.some((observation) => observation.positive) ? withData.filter((observation) => observation.positive) : withData;
  if (pool.length === 0) return null;
  const values = pool.map((observation) => observation.value);
  return definition.operator?.startsWith('Below') ? Math.min(...values) : Math.max(...values);
}
