// GraphQL for trying alerting out before relying on it: the backtest of a monitor definition over
// a past period (as POST /v2/monitors/backtest) and a notifier's test notification (as
// POST /v2/notifiers/{id}/test). Same services as the REST routes.
import type { BacktestResult, BacktestRun } from '../../monitors/backtest';
import { builder } from './builder';
import { MonitorInput } from './monitors';
import { restBody } from './rest-body';

const BacktestRunRef = builder.objectRef<BacktestRun>('MonitorBacktestRun').implement({
  description: 'One run the monitor would have made',
  fields: (t) => ({
    dueAt: t.field({ type: 'DateTime', resolve: (run) => run.dueAt }),
    startTime: t.field({ type: 'DateTime', description: 'Start of its query window', resolve: (run) => run.startTime }),
    endTime: t.field({ type: 'DateTime', description: 'End of its query window', resolve: (run) => run.endTime }),
    positive: t.exposeBoolean('positive'),
    value: t.exposeFloat('value', { nullable: true, description: 'The most extreme value (threshold, anomaly) or the number of new matches' }),
    opened: t.exposeStringList('opened', { description: 'Alerts that would have opened' }),
    closed: t.exposeStringList('closed', { description: 'Alerts that would have closed' }),
    notifications: t.exposeInt('notifications', { description: 'Notifications it would have sent to each notifier' }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const BacktestRef = builder.objectRef<BacktestResult>('MonitorBacktest').implement({
  description: 'A monitor definition replayed over a past period; nothing stored or sent',
  fields: (t) => ({
    startTime: t.field({ type: 'DateTime', resolve: (result) => result.startTime }),
    endTime: t.field({ type: 'DateTime', resolve: (result) => result.endTime }),
    runs: t.field({ type: [BacktestRunRef], resolve: (result) => result.runs }),
  }),
});

builder.queryFields((t) => ({
  monitorBacktest: t.field({
    type: BacktestRef,
    description: 'Replays a monitor definition over a past period, as POST /v2/monitors/backtest',
    args: {
      input: t.arg({ type: MonitorInput, required: true }),
      startTime: t.arg({ type: 'DateTime', required: true }),
      endTime: t.arg({ type: 'DateTime', required: true }),
      monitorId: t.arg.string({ description: "A saved monitor's id, to replay on its schedule" }),
    },
    resolve: (_root, { input, startTime, endTime, monitorId }, context) =>
      context.services.monitoring.backtests.run(context.principal(), restBody({ ...input, startTime, endTime, monitorId })),
  }),
}));

builder.mutationFields((t) => ({
  sendTestNotification: t.field({
    type: 'String',
    description: 'Queues a test notification through the notifier (as POST /v2/notifiers/{id}/test); returns its notification id, found in the delivery log',
    args: { id: t.arg.string({ required: true, description: 'The notifier (notify_...)' }) },
    resolve: async (_root, { id }, context) => (await context.services.monitoring.notifierTests.send(context.principal(), id)).notificationId,
  }),
}));
