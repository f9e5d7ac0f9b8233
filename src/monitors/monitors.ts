// Monitor management (v2 `/monitors`): CRUD under the `monitors` capability, each query checked
// as its author could run it; listing keeps to monitors over datasets the caller may query.
// Also the history of a monitor's alert transitions and its current status.
import { datasetsWithCapability, type Principal, requireOrgCapability } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { DomainError, invalidInput, notFound } from '../errors';
import type { QueryService } from '../queries/query-service';
import { newMonitorId } from './ids';
import { checkQueryShape, type MonitorDefinition, type MonitorType, type Operator, parseMonitorInput } from './monitor-definitions';
import type { NotifierService } from './notifiers';
import type { Clock } from './clock';
import { nextRun } from './schedule';
import { type AlertStates, openAlerts } from './alerts';

export interface MonitorRecord extends MonitorDefinition {
  id: string;
  orgId: string;
  datasets: string[];
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface MonitorRow {
  id: string;
  orgId: string;
  name: string;
  description: string;
  type: string;
  aplQuery: string;
  operator: string | null;
  threshold: number | null;
  columnName: string | null;
  intervalMinutes: number;
  rangeMinutes: number;
  alertOnNoData: boolean;
  notifyByGroup: boolean;
  notifyEveryRun: boolean;
  resolvable: boolean;
  skipResolved: boolean;
  disabled: boolean;
  disabledUntil: Date | null;
  notifierIds: string;
  triggerFromNRuns: number;
  triggerAfterNPositiveResults: number;
  secondDelay: number;
  tolerance: number | null;
  compareDays: number | null;
  datasets: string;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export function monitorRecord(row: MonitorRow): MonitorRecord {
  return {
    ...row,
    type: row.type as MonitorType,
    operator: row.operator as Operator | null,
    notifierIds: JSON.parse(row.notifierIds) as string[],
    datasets: JSON.parse(row.datasets) as string[],
  };
}

/** A monitor as the API shows it: Axiom's MonitorWithId. */
export function monitorView(monitor: MonitorRecord) {
  return {
    id: monitor.id,
    name: monitor.name,
    description: monitor.description,
    type: monitor.type,
    aplQuery: monitor.aplQuery,
    ...(monitor.operator ? { operator: monitor.operator } : {}),
    threshold: monitor.threshold ?? 0,
    ...(monitor.columnName ? { columnName: monitor.columnName } : {}),
    intervalMinutes: monitor.intervalMinutes,
    rangeMinutes: monitor.rangeMinutes,
    alertOnNoData: monitor.alertOnNoData,
    notifyByGroup: monitor.notifyByGroup,
    notifyEveryRun: monitor.notifyEveryRun,
    resolvable: monitor.resolvable,
    skipResolved: monitor.skipResolved,
    disabled: monitor.disabled,
    disabledUntil: monitor.disabledUntil ? monitor.disabledUntil.toISOString() : null,
    notifierIds: monitor.notifierIds,
    triggerFromNRuns: monitor.triggerFromNRuns,
    triggerAfterNPositiveResults: monitor.triggerAfterNPositiveResults,
    secondDelay: monitor.secondDelay,
    ...(monitor.tolerance !== null ? { tolerance: monitor.tolerance } : {}),
    ...(monitor.compareDays !== null ? { compareDays: monitor.compareDays } : {}),
    createdAt: monitor.createdAt.toISOString(),
    createdBy: monitor.createdBy,
    updatedAt: monitor.updatedAt.toISOString(),
  };
}

export interface HistoryEntry {
  name: string;
  checkId: string;
  timestamp: string;
  state: 'open' | 'closed';
}

export interface MonitorStatus {
  /** `open` while any of the monitor's alerts is open. */
  state: 'open' | 'closed';
  openAlerts: { name: string; since: string; groupKeys: string[] | null; groupValues: unknown[] | null }[];
  nextRunAt: string | null;
  lastScheduledAt: string | null;
  lastRunAt: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
}

export class MonitorService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly queries: QueryService,
    private readonly notifiers: NotifierService,
    private readonly clock: Clock,
    /** Called after a change, so the scheduler looks again. */
    private readonly changed: () => void,
  ) {}

  /** Whether the principal may query every dataset the monitor reads. */
  private canQuery(principal: Principal, monitor: MonitorRecord): boolean {
    const reachable = datasetsWithCapability(principal, 'query', 'read');
    return reachable === '*' || monitor.datasets.every((name) => reachable.includes(name));
  }

  async list(principal: Principal): Promise<MonitorRecord[]> {
    requireOrgCapability(principal, 'monitors', 'read');
    const rows = await this.prisma.monitor.findMany({ where: { orgId: principal.orgId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(monitorRecord).filter((monitor) => this.canQuery(principal, monitor));
  }

  async get(principal: Principal, id: string): Promise<MonitorRecord> {
    requireOrgCapability(principal, 'monitors', 'read');
    return this.findVisible(principal, id);
  }

  private async findVisible(principal: Principal, id: string): Promise<MonitorRecord> {
    const row = await this.prisma.monitor.findFirst({ where: { id, orgId: principal.orgId } });
    if (!row) throw notFound(`monitor "${id}" not found`);
    const monitor = monitorRecord(row);
    // A monitor over data the caller may not query is hidden, as from the list: the same 404.
    if (!this.canQuery(principal, monitor)) throw notFound(`monitor "${id}" not found`);
    return monitor;
  }

  /** Parses and checks a definition: fields, notifiers, and the query as the principal runs it. */
  private async definitionFrom(principal: Principal, body: unknown): Promise<{ definition: MonitorDefinition; datasets: string[] }> {
    const definition = parseMonitorInput(body);
    const unknown = await this.notifiers.unknownIds(principal.orgId, definition.notifierIds);
    if (unknown.length > 0) throw invalidInput(`invalid request body: notifierIds: no notifier ${unknown.map((id) => `"${id}"`).join(', ')} in this organization`);
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
    return { definition, datasets: shape.datasets };
  }

  private nextDue(id: string, definition: MonitorDefinition): Date {
    return new Date(nextRun(id, definition, this.clock.now()).dueAt);
  }

  async create(principal: Principal, body: unknown): Promise<MonitorRecord> {
    requireOrgCapability(principal, 'monitors', 'create');
    const { definition, datasets } = await this.definitionFrom(principal, body);
    const id = newMonitorId();
    const row = await this.prisma.monitor.create({
      data: {
        id,
        orgId: principal.orgId,
        ...definition,
        notifierIds: JSON.stringify(definition.notifierIds),
        datasets: JSON.stringify(datasets),
        createdBy: principal.userId ?? principal.tokenId,
        state: { create: { nextRunAt: this.nextDue(id, definition) } },
      },
    });
    this.changed();
    return monitorRecord(row);
  }

  /** Replaces the definition (PUT). Alerts keep their state; the schedule follows the new interval. */
  async update(principal: Principal, id: string, body: unknown): Promise<MonitorRecord> {
    requireOrgCapability(principal, 'monitors', 'update');
    await this.findVisible(principal, id);
    const { definition, datasets } = await this.definitionFrom(principal, body);
    const nextRunAt = this.nextDue(id, definition);
    const row = await this.prisma.monitor.update({
      where: { id },
      data: {
        ...definition,
        notifierIds: JSON.stringify(definition.notifierIds),
        datasets: JSON.stringify(datasets),
        state: { upsert: { create: { nextRunAt }, update: { nextRunAt } } },
      },
    });
    this.changed();
    return monitorRecord(row);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'monitors', 'delete');
    await this.findVisible(principal, id);
    await this.prisma.monitor.delete({ where: { id } });
    this.changed();
  }

  /** Alert transitions between two times (both required, RFC 3339), oldest first. */
  async history(principal: Principal, id: string, query: { startTime?: unknown; endTime?: unknown }): Promise<HistoryEntry[]> {
    requireOrgCapability(principal, 'monitors', 'read');
    const bound = (name: 'startTime' | 'endTime') => {
      const value = query[name];
      if (typeof value !== 'string' || value === '') throw invalidInput(`${name} is required (an RFC 3339 time, e.g. 2024-03-20T15:30:00Z)`);
      const time = new Date(value);
      if (Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw invalidInput(`${name} must be an RFC 3339 time (got "${value}")`);
      return time;
    };
    const startTime = bound('startTime');
    const endTime = bound('endTime');
    if (startTime > endTime) throw invalidInput('startTime must not be after endTime');
    await this.findVisible(principal, id);
    const rows = await this.prisma.monitorHistory.findMany({
      where: { monitorId: id, timestamp: { gte: startTime, lte: endTime } },
      orderBy: [{ timestamp: 'asc' }, { id: 'asc' }],
    });
    return rows.map((row) => ({ name: row.name, checkId: row.checkId, timestamp: row.timestamp.toISOString(), state: row.state as 'open' | 'closed' }));
  }

  async status(principal: Principal, id: string): Promise<MonitorStatus> {
    const monitor = await this.get(principal, id);
    const state = await this.prisma.monitorState.findUnique({ where: { monitorId: id } });
    const alerts = state ? (JSON.parse(state.alerts) as AlertStates) : {};
    const open = openAlerts(monitor.name, alerts);
    return {
      state: open.length > 0 ? 'open' : 'closed',
      openAlerts: open,
      nextRunAt: state?.nextRunAt.toISOString() ?? null,
      lastScheduledAt: state?.lastScheduledAt?.toISOString() ?? null,
      lastRunAt: state?.lastRunAt?.toISOString() ?? null,
      lastDurationMs: state?.lastDurationMs ?? null,
      lastError: state?.lastError ?? null,
    };
  }
}
