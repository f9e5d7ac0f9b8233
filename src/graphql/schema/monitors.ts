// GraphQL for alerting: monitors and notifiers as Relay nodes and connections, a monitor's
// status and history, a notifier's delivery log, and mutations mirroring /v2/monitors and
// /v2/notifiers. Same MonitorService and NotifierService as the REST routes.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { MONITOR_TYPES, OPERATORS } from '../../monitors/monitor-definitions';
import type { HistoryEntry, MonitorRecord, MonitorStatus } from '../../monitors/monitors';
import { type DeliveryView, type NotifierRecord, notifierView } from '../../monitors/notifiers';
import { nullWhenMissing, nullWhenNotFound } from './auth';
import { builder } from './builder';
import { restBody } from './rest-body';

const MonitorTypeEnum = builder.enumType('MonitorType', { values: MONITOR_TYPES });
const MonitorOperatorEnum = builder.enumType('MonitorOperator', { values: OPERATORS });

/** Drops nulls at every depth: GraphQL sends them for omitted input fields. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== null && inner !== undefined)
        .map(([key, inner]) => [key, withoutNulls(inner)]),
    );
  }
  return value;
}

const DeliveryRef = builder.objectRef<DeliveryView>('NotifierDelivery').implement({
  description: 'One attempt to deliver a notification through a notifier',
  fields: (t) => ({
    attemptId: t.exposeInt('id'),
    notificationId: t.exposeString('notificationId', { description: 'The same for every attempt of one notification' }),
    monitorId: t.exposeString('monitorId'),
    action: t.exposeString('action', { description: 'Open or Closed' }),
    attempt: t.exposeInt('attempt'),
    outcome: t.exposeString('outcome', { description: 'delivered, retrying (will be tried again), failed (given up) or skipped (notifier disabled)' }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    durationMs: t.exposeInt('durationMs'),
    attemptedAt: t.field({ type: 'DateTime', resolve: (delivery) => delivery.attemptedAt }),
    test: t.exposeBoolean('test', { description: 'A test notification sent by hand, not an alert' }),
  }),
});

export const NotifierRef = builder.objectRef<NotifierRecord>('Notifier');
builder.node(NotifierRef, {
  description: 'A notification channel: webhook, Slack, Discord, Microsoft Teams, PagerDuty, Opsgenie or email',
  id: { resolve: (notifier) => notifier.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.monitoring.notifiers.get(context.principal(), id)),
  fields: (t) => ({
    notifierId: t.exposeString('id', { description: 'The id of the REST API (/v2/notifiers/{id})' }),
    name: t.exposeString('name'),
    channel: t.exposeString('channel', { description: 'The one key of properties' }),
    properties: t.field({ type: 'JSON', description: 'As in /v2/notifiers, secrets masked', resolve: (notifier) => notifierView(notifier).properties }),
    disabledUntil: t.field({ type: 'DateTime', nullable: true, resolve: (notifier) => notifier.disabledUntil }),
    createdBy: t.exposeString('createdBy'),
    createdAt: t.field({ type: 'DateTime', resolve: (notifier) => notifier.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (notifier) => notifier.updatedAt }),
    deliveries: t.connection({
      type: DeliveryRef,
      description: 'Delivery attempts, newest first (the latest 1,000)',
      resolve: async (notifier, args, context) =>
        resolveArrayConnection({ args }, await context.services.monitoring.notifiers.deliveries(context.principal(), notifier.id, { limit: 1000 })),
    }),
  }),
});

const HistoryRef = builder.objectRef<HistoryEntry>('MonitorHistoryEntry').implement({
  description: 'An alert of the monitor opening or closing',
  fields: (t) => ({
    name: t.exposeString('name', { description: "The alert: the monitor's name, with its group for alerts by group" }),
    checkId: t.exposeString('checkId', { description: 'The run that saw the change' }),
    timestamp: t.field({ type: 'DateTime', resolve: (entry) => entry.timestamp }),
    state: t.exposeString('state', { description: 'open or closed' }),
  }),
});

const OpenAlertRef = builder.objectRef<MonitorStatus['openAlerts'][number]>('OpenAlert').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    since: t.field({ type: 'DateTime', resolve: (alert) => alert.since }),
    groupKeys: t.exposeStringList('groupKeys', { nullable: true }),
    groupValues: t.field({ type: 'JSON', nullable: true, resolve: (alert) => alert.groupValues }),
  }),
});

const MonitorStatusRef = builder.objectRef<MonitorStatus>('MonitorStatus').implement({
  description: "The monitor's alerts and runs",
  fields: (t) => ({
    state: t.exposeString('state', { description: 'open while any of its alerts is open, else closed' }),
    openAlerts: t.field({ type: [OpenAlertRef], resolve: (status) => status.openAlerts }),
    nextRunAt: t.field({ type: 'DateTime', nullable: true, resolve: (status) => status.nextRunAt }),
    lastScheduledAt: t.field({ type: 'DateTime', nullable: true, description: 'When the latest run was due', resolve: (status) => status.lastScheduledAt }),
    lastRunAt: t.field({ type: 'DateTime', nullable: true, description: 'When the latest run started', resolve: (status) => status.lastRunAt }),
    lastDurationMs: t.exposeInt('lastDurationMs', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the latest run could not evaluate its query, if it could not' }),
  }),
});

export const MonitorRef = builder.objectRef<MonitorRecord>('Monitor');
builder.node(MonitorRef, {
  description: 'A query run on a schedule whose results open and close alerts',
  id: { resolve: (monitor) => monitor.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.monitoring.monitors.get(context.principal(), id)),
  fields: (t) => ({
    monitorId: t.exposeString('id', { description: 'The id of the REST API (/v2/monitors/{id})' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    type: t.field({ type: MonitorTypeEnum, resolve: (monitor) => monitor.type }),
    aplQuery: t.exposeString('aplQuery'),
    operator: t.field({ type: MonitorOperatorEnum, nullable: true, resolve: (monitor) => monitor.operator }),
    threshold: t.exposeFloat('threshold', { nullable: true }),
    columnName: t.exposeString('columnName', { nullable: true }),
    intervalMinutes: t.exposeInt('intervalMinutes'),
    rangeMinutes: t.exposeInt('rangeMinutes'),
    alertOnNoData: t.exposeBoolean('alertOnNoData'),
    notifyByGroup: t.exposeBoolean('notifyByGroup'),
    notifyEveryRun: t.exposeBoolean('notifyEveryRun'),
    resolvable: t.exposeBoolean('resolvable'),
    skipResolved: t.exposeBoolean('skipResolved'),
    disabled: t.exposeBoolean('disabled'),
    disabledUntil: t.field({ type: 'DateTime', nullable: true, resolve: (monitor) => monitor.disabledUntil }),
    notifierIds: t.exposeStringList('notifierIds'),
    triggerFromNRuns: t.exposeInt('triggerFromNRuns'),
    triggerAfterNPositiveResults: t.exposeInt('triggerAfterNPositiveResults'),
    secondDelay: t.exposeInt('secondDelay'),
    tolerance: t.exposeFloat('tolerance', { nullable: true }),
    compareDays: t.exposeInt('compareDays', { nullable: true }),
    datasets: t.exposeStringList('datasets', { description: 'The datasets the query reads' }),
    createdBy: t.exposeString('createdBy'),
    createdAt: t.field({ type: 'DateTime', resolve: (monitor) => monitor.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (monitor) => monitor.updatedAt }),
    notifiers: t.field({
      type: [NotifierRef],
      description: 'Its notifiers that still exist',
      resolve: async (monitor, _args, context) => {
        const all = await context.services.monitoring.notifiers.list(context.principal());
        return all.filter((notifier) => monitor.notifierIds.includes(notifier.id));
      },
    }),
    status: t.field({ type: MonitorStatusRef, resolve: (monitor, _args, context) => context.services.monitoring.monitors.status(context.principal(), monitor.id) }),
    history: t.connection({
      type: HistoryRef,
      description: 'Alert transitions between startTime and endTime, oldest first',
      args: { startTime: t.arg({ type: 'DateTime', required: true }), endTime: t.arg({ type: 'DateTime', required: true }) },
      resolve: async (monitor, args, context) =>
        resolveArrayConnection(
          { args },
          await context.services.monitoring.monitors.history(context.principal(), monitor.id, {
            startTime: args.startTime.toISOString(),
            endTime: args.endTime.toISOString(),
          }),
        ),
    }),
  }),
});

export const MonitorInput = builder.inputType('MonitorInput', {
  description: 'The fields of /v2/monitors',
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    type: t.field({ type: MonitorTypeEnum, required: true }),
    aplQuery: t.string({ required: true }),
    operator: t.field({ type: MonitorOperatorEnum }),
    threshold: t.float(),
    columnName: t.string(),
    intervalMinutes: t.int({ description: 'How often it runs (default 1)' }),
    rangeMinutes: t.int({ description: 'The query window before each run (default: the interval)' }),
    alertOnNoData: t.boolean(),
    notifyByGroup: t.boolean(),
    notifyEveryRun: t.boolean(),
    resolvable: t.boolean(),
    skipResolved: t.boolean(),
    disabled: t.boolean(),
    disabledUntil: t.field({ type: 'DateTime' }),
    notifierIds: t.stringList(),
    triggerFromNRuns: t.int(),
    triggerAfterNPositiveResults: t.int(),
    secondDelay: t.int(),
    tolerance: t.float(),
    compareDays: t.int(),
  }),
});

const CustomWebhookInput = builder.inputType('CustomWebhookInput', {
  description: 'POSTs the rendered Go template (or the default body) to url',
  fields: (t) => ({
    url: t.string({ required: true }),
    body: t.string({ description: 'Go template; empty for the default body' }),
    headers: t.field({ type: 'JSON', description: '{"name": "value"}' }),
    secretHeaders: t.field({ type: 'JSON', description: '{"name": "value"}, masked when shown' }),
  }),
});
const WebhookInput = builder.inputType('WebhookInput', {
  description: 'POSTs the default JSON body to url',
  fields: (t) => ({ url: t.string({ required: true }) }),
});
const SlackInput = builder.inputType('SlackInput', {
  description: 'A Slack incoming webhook',
  fields: (t) => ({ slackUrl: t.string({ required: true }) }),
});
const DiscordWebhookInput = builder.inputType('DiscordWebhookInput', {
  description: 'A Discord channel webhook',
  fields: (t) => ({ discordWebhookUrl: t.string({ required: true }) }),
});
const DiscordInput = builder.inputType('DiscordInput', {
  description: 'A Discord bot posting to a channel',
  fields: (t) => ({ discordToken: t.string({ required: true }), discordChannel: t.string({ required: true }) }),
});
const MicrosoftTeamsInput = builder.inputType('MicrosoftTeamsInput', {
  description: 'A Microsoft Teams incoming webhook',
  fields: (t) => ({ microsoftTeamsUrl: t.string({ required: true }) }),
});
const PagerDutyInput = builder.inputType('PagerDutyInput', {
  description: 'A PagerDuty Events API v2 integration',
  fields: (t) => ({ routingKey: t.string({ required: true }), token: t.string() }),
});
const OpsgenieInput = builder.inputType('OpsgenieInput', {
  description: 'An Opsgenie API integration',
  fields: (t) => ({ apiKey: t.string({ required: true }), isEU: t.boolean() }),
});
const EmailInput = builder.inputType('EmailInput', {
  description: 'Email addresses',
  fields: (t) => ({ emails: t.stringList({ required: true }) }),
});

const NotifierPropertiesInput = builder.inputType('NotifierPropertiesInput', {
  description: 'Exactly one channel',
  fields: (t) => ({
    customWebhook: t.field({ type: CustomWebhookInput }),
    webhook: t.field({ type: WebhookInput }),
    slack: t.field({ type: SlackInput }),
    discordWebhook: t.field({ type: DiscordWebhookInput }),
    discord: t.field({ type: DiscordInput }),
    microsoftTeams: t.field({ type: MicrosoftTeamsInput }),
    pagerduty: t.field({ type: PagerDutyInput }),
    opsgenie: t.field({ type: OpsgenieInput }),
    email: t.field({ type: EmailInput }),
  }),
});

const NotifierInput = builder.inputType('NotifierInput', {
  description: 'The fields of /v2/notifiers',
  fields: (t) => ({
    name: t.string({ required: true }),
    properties: t.field({ type: NotifierPropertiesInput, required: true }),
    disabledUntil: t.field({ type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  monitors: t.connection({
    type: MonitorRef,
    description: 'Monitors over datasets the token may query, oldest first',
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.monitoring.monitors.list(context.principal())),
  }),
  monitor: t.field({
    type: MonitorRef,
    nullable: true,
    args: { id: t.arg.string({ required: true, description: 'The REST id (mon_...)' }) },
    resolve: (_root, { id }, context) => nullWhenNotFound(() => context.services.monitoring.monitors.get(context.principal(), id)),
  }),
  notifiers: t.connection({
    type: NotifierRef,
    description: "The organization's notifiers, oldest first",
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.monitoring.notifiers.list(context.principal())),
  }),
  notifier: t.field({
    type: NotifierRef,
    nullable: true,
    args: { id: t.arg.string({ required: true, description: 'The REST id (notify_...)' }) },
    resolve: (_root, { id }, context) => nullWhenNotFound(() => context.services.monitoring.notifiers.get(context.principal(), id)),
  }),
}));

builder.mutationFields((t) => ({
  createMonitor: t.field({
    type: MonitorRef,
    args: { input: t.arg({ type: MonitorInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.monitoring.monitors.create(context.principal(), restBody(input)),
  }),
  updateMonitor: t.field({
    type: MonitorRef,
    description: 'Replaces the definition, as PUT /v2/monitors/{id}',
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: MonitorInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.monitoring.monitors.update(context.principal(), id, restBody(input)),
  }),
  deleteMonitor: t.field({
    type: 'ID',
    description: 'Deletes the monitor and returns its id',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.monitoring.monitors.delete(context.principal(), id);
      return id;
    },
  }),
  createNotifier: t.field({
    type: NotifierRef,
    args: { input: t.arg({ type: NotifierInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.monitoring.notifiers.create(context.principal(), withoutNulls(input)),
  }),
  updateNotifier: t.field({
    type: NotifierRef,
    description: 'Replaces the definition, as PUT /v2/notifiers/{id}; masked secrets sent back keep their values',
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: NotifierInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.monitoring.notifiers.update(context.principal(), id, withoutNulls(input)),
  }),
  deleteNotifier: t.field({
    type: 'ID',
    description: 'Deletes the notifier and returns its id',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.monitoring.notifiers.delete(context.principal(), id);
      return id;
    },
  }),
}));
