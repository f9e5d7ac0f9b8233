// Saved queries and monitors: what the team has already written and what is alerting now.
import { z } from 'zod';
import { csvRow } from '../../rest/shared/csv';
import { defineTool } from '../tool-kit';
import { windowOf } from '../times';

export const getSavedQueries = defineTool({
  name: 'getSavedQueries',
  title: 'List saved queries',
  description: "Lists the organization's saved (starred) APL queries, optionally of one dataset: a good source of working queries to adapt.",
  input: {
    dataset: z.string().min(1).max(128).optional().describe('Only queries of this dataset'),
    limit: z.number().int().min(1).max(100).default(50).describe('Most queries to return'),
    offset: z.number().int().min(0).max(100_000).default(0).describe('Queries to skip (paging)'),
  },
  output: {
    queries: z.array(
      z.object({ id: z.string(), name: z.string(), dataset: z.string().nullable(), apl: z.string(), startTime: z.string().nullable(), endTime: z.string().nullable(), who: z.string(), updatedAt: z.string() }),
    ),
  },
  async run({ dataset, limit, offset }, context) {
    const saved = await context.services.starredQueries.list(context.principal, { ...(dataset !== undefined ? { dataset } : {}), who: 'all', limit, offset });
    const queries = saved.map((query) => ({
      id: query.id,
      name: query.name,
      dataset: query.dataset ?? null,
      apl: String(query.query.apl ?? ''),
      startTime: typeof query.query.startTime === 'string' ? query.query.startTime : null,
      endTime: typeof query.query.endTime === 'string' ? query.query.endTime : null,
      who: query.who,
      updatedAt: query.updatedAt,
    }));
    const text = [csvRow(['id', 'name', 'dataset', 'apl']), ...queries.map((q) => csvRow([q.id, q.name, q.dataset, q.apl]))].join('\n');
    return { structured: { queries }, text };
  },
});

const alertSchema = z.object({ name: z.string(), since: z.string(), groupKeys: z.array(z.string()).nullable(), groupValues: z.array(z.unknown()).nullable() });

export const checkMonitors = defineTool({
  name: 'checkMonitors',
  title: 'Check monitors',
  description:
    'Lists the monitors over datasets this token can query with their state (open while any alert is open), open alerts, last run and last error. ' +
    'Use getMonitorHistory for when alerts opened and closed, and queryApl with the monitor\'s aplQuery to look closer.',
  input: {
    state: z.enum(['open', 'closed']).optional().describe('Only monitors in this state'),
  },
  output: {
    monitors: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string(),
        type: z.string(),
        aplQuery: z.string(),
        datasets: z.array(z.string()),
        disabled: z.boolean(),
        state: z.enum(['open', 'closed']),
        openAlerts: z.array(alertSchema),
        lastRunAt: z.string().nullable(),
        lastError: z.string().nullable(),
        nextRunAt: z.string().nullable(),
      }),
    ),
  },
  async run({ state }, context) {
    const { monitors } = context.services.monitoring;
    const listed = await monitors.list(context.principal);
    const entries = await Promise.all(
      listed.map(async (monitor) => {
        const status = await monitors.status(context.principal, monitor.id);
        return {
          id: monitor.id,
          name: monitor.name,
          description: monitor.description,
          type: monitor.type,
          aplQuery: monitor.aplQuery,
          datasets: monitor.datasets,
          disabled: monitor.disabled,
          state: status.state,
          openAlerts: status.openAlerts,
          lastRunAt: status.lastRunAt,
          lastError: status.lastError,
          nextRunAt: status.nextRunAt,
        };
      }),
    );
    const shown = entries.filter((entry) => state === undefined || entry.state === state);
    const text = [
      csvRow(['id', 'name', 'state', 'openAlerts', 'disabled', 'lastRunAt', 'lastError']),
      ...shown.map((m) => csvRow([m.id, m.name, m.state, m.openAlerts.length, m.disabled, m.lastRunAt, m.lastError])),
    ].join('\n');
    return { structured: { monitors: shown }, text };
  },
});

export const getMonitorHistory = defineTool({
  name: 'getMonitorHistory',
  title: 'Get monitor history',
  description: "When a monitor's alerts opened and closed between two times, oldest first.",
  input: {
    monitorId: z.string().min(1).max(200).describe('The monitor id, from checkMonitors'),
    startTime: z.string().max(100).default('now-1d').describe('RFC 3339 or relative (now-7d)'),
    endTime: z.string().max(100).default('now').describe('RFC 3339 or relative'),
  },
  output: {
    monitorId: z.string(),
    entries: z.array(z.object({ name: z.string(), checkId: z.string(), timestamp: z.string(), state: z.enum(['open', 'closed']) })),
  },
  async run({ monitorId, startTime, endTime }, context) {
    const window = windowOf(startTime, endTime);
    const entries = await context.services.monitoring.monitors.history(context.principal, monitorId, {
      startTime: window.start.toISOString(),
      endTime: window.end.toISOString(),
    });
    const text = [csvRow(['timestamp', 'state', 'name', 'checkId']), ...entries.map((e) => csvRow([e.timestamp, e.state, e.name, e.checkId]))].join('\n');
    return { structured: { monitorId, entries }, text };
  },
});
