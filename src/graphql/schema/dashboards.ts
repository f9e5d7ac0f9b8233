// GraphQL for dashboards: nodes by uid, a connection of those the caller can see, and mutations
// with the same version rules as /v2/dashboards (a stale version is a PRECONDITION_FAILED error
// whose extensions carry currentVersion).
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { DashboardResource, DashboardWrite } from '../../dashboards/service';
import { nullWhenMissing, nullWhenNotFound } from './auth';
import { builder } from './builder';

const DashboardRef = builder.objectRef<DashboardResource>('Dashboard');
builder.node(DashboardRef, {
  description: 'A dashboard document under its uid',
  id: { resolve: (dashboard) => dashboard.uid },
  loadOne: (uid, context) => nullWhenMissing(() => context.services.dashboards.get(context.principal(), uid)),
  fields: (t) => ({
    uid: t.exposeString('uid'),
    dashboardId: t.exposeString('id'),
    version: t.exposeInt('version'),
    document: t.field({ type: 'JSON', description: 'The dashboard document, as stored', resolve: (dashboard) => dashboard.dashboard }),
    name: t.string({ nullable: true, resolve: (dashboard) => (typeof dashboard.dashboard.name === 'string' ? dashboard.dashboard.name : null) }),
    createdAt: t.field({ type: 'DateTime', resolve: (dashboard) => dashboard.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (dashboard) => dashboard.updatedAt }),
    createdBy: t.exposeString('createdBy'),
    updatedBy: t.exposeString('updatedBy'),
  }),
});

const DashboardWriteRef = builder.objectRef<DashboardWrite>('DashboardWrite').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'created or updated' }),
    overwritten: t.boolean({ resolve: (write) => write.overwritten ?? false }),
    dashboard: t.field({ type: DashboardRef, resolve: (write) => write.dashboard }),
  }),
});

builder.queryFields((t) => ({
  dashboards: t.connection({
    type: DashboardRef,
    description: 'Dashboards the caller can see, oldest first',
    resolve: async (_root, args, context) =>
      resolveArrayConnection({ args }, await context.services.dashboards.list(context.principal(), { limit: 1000 })),
  }),
  dashboard: t.field({
    type: DashboardRef,
    nullable: true,
    args: { uid: t.arg.string({ required: true }) },
    description: 'The dashboard, or null when there is none the caller can see under that uid',
    resolve: (_root, { uid }, context) => nullWhenNotFound(() => context.services.dashboards.get(context.principal(), uid)),
  }),
}));

builder.mutationFields((t) => ({
  createDashboard: t.field({
    type: DashboardWriteRef,
    description: 'Creates a dashboard; an existing uid is a CONFLICT unless overwrite',
    args: { document: t.arg({ type: 'JSON', required: true }), uid: t.arg.string(), overwrite: t.arg.boolean() },
    resolve: (_root, args, context) =>
      context.services.dashboards.create(context.principal(), {
        dashboard: args.document,
        ...(args.uid ? { uid: args.uid } : {}),
        ...(args.overwrite != null ? { overwrite: args.overwrite } : {}),
      }),
  }),
  updateDashboard: t.field({
    type: DashboardWriteRef,
    description: 'Replaces the document; needs the current version unless overwrite',
    args: { uid: t.arg.string({ required: true }), document: t.arg({ type: 'JSON', required: true }), version: t.arg.int(), overwrite: t.arg.boolean() },
    resolve: (_root, args, context) =>
      context.services.dashboards.update(context.principal(), args.uid, {
        dashboard: args.document,
        ...(args.version != null ? { version: args.version } : {}),
        ...(args.overwrite != null ? { overwrite: args.overwrite } : {}),
      }),
  }),
  patchDashboardChart: t.field({
    type: DashboardWriteRef,
    description: 'Applies a JSON merge patch (RFC 7396) to one chart',
    args: {
      uid: t.arg.string({ required: true }),
      chartId: t.arg.string({ required: true }),
      patch: t.arg({ type: 'JSON', required: true }),
      version: t.arg.int(),
      overwrite: t.arg.boolean(),
    },
    resolve: (_root, args, context) =>
      context.services.dashboards.patchChart(context.principal(), args.uid, args.chartId, {
        chart: args.patch,
        ...(args.version != null ? { version: args.version } : {}),
        ...(args.overwrite != null ? { overwrite: args.overwrite } : {}),
      }),
  }),
  deleteDashboard: t.field({
    type: 'String',
    description: 'Deletes the dashboard; returns its uid',
    args: { uid: t.arg.string({ required: true }) },
    resolve: async (_root, { uid }, context) => {
      await context.services.dashboards.delete(context.principal(), uid);
      return uid;
    },
  }),
}));
