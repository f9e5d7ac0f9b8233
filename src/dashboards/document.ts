// The dashboard document (schemaVersion 2) as Axiom's v2 API describes it, validated with zod.
// Known properties are checked (types, lengths, ranges, chart kinds and their queries); anything
// else is kept as sent, so documents written by newer clients survive a round trip. Chart ids
// must be unique, since a chart is addressed by its id.
import { z } from 'zod';

/** Owner value that shares a dashboard with everyone in the organization. */
export const EVERYONE = 'X-AXIOM-EVERYONE';
export const DASHBOARD_UID = /^[A-Za-z0-9_-]{1,128}$/;
export const DASHBOARD_UID_RULE = 'uids are 1 to 128 letters, digits, "_" or "-"';

const chartId = z.string().min(1, 'must not be empty').max(200);
const chartName = z.string().min(1).max(500);
const apl = z.string().min(1).max(500_000);

const chartQuery = z
  .looseObject({ apl: apl.optional(), mpl: apl.optional() })
  .refine((query) => (query.apl === undefined) !== (query.mpl === undefined), 'needs exactly one of "apl" or "mpl"');

const withQuery = z.looseObject({ name: chartName.optional(), query: chartQuery });

/** Rules for the chart kinds this server knows; other kinds are kept unchecked beyond id and type. */
const CHART_RULES: Record<string, z.ZodType> = {
  TimeSeries: withQuery,
  Heatmap: withQuery,
  LogStream: withQuery,
  Pie: withQuery,
  Scatter: withQuery,
  Table: withQuery,
  TopK: withQuery,
  Statistic: withQuery,
  // A gauge: a statistic's sibling drawn on an arc (options: min, max, unit, decimals, thresholds, colorScale).
  Gauge: withQuery,
  // A collapsible section heading: it holds the charts laid out below it, up to the next section.
  Section: z.looseObject({ name: chartName.optional(), collapsedByDefault: z.boolean().optional() }),
  Note: z.looseObject({ text: z.string().min(1).max(100_000) }),
  Spacer: z.looseObject({ name: chartName.optional() }),
  MonitorList: z.looseObject({
    name: chartName.optional(),
    selectedMonitors: z.array(z.string().min(1).max(200)).min(1).max(200),
    columns: z.unknown().refine((value) => value !== undefined, 'is required'),
  }),
  SmartFilter: z.looseObject({ name: chartName.optional(), filters: z.array(z.looseObject({})).min(1).max(50) }),
};

export const chartSchema = z.looseObject({ id: chartId, type: z.string().min(1).max(100) }).superRefine((chart, context) => {
  const rule = CHART_RULES[chart.type];
  if (!rule) return;
  const checked = rule.safeParse(chart);
  if (checked.success) return;
  for (const issue of checked.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
});

const layoutItem = z.looseObject({
  i: chartId,
  x: z.number().int().min(0).max(11),
  y: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  w: z.number().int().min(1).max(12),
  h: z.number().int().min(1).max(100),
  minW: z.number().int().min(1).max(12).optional(),
  minH: z.number().min(0.5).max(100).optional(),
  maxW: z.number().int().min(1).max(12).optional(),
  maxH: z.number().int().min(1).max(100).optional(),
  static: z.boolean().optional(),
});

const AGAINST = ['-1h', '-3h', '-6h', '-12h', '-1d', '-3d', '-7d', '-1w', '-2w', '-3w', '-30d', '-60d', '-90d', ''] as const;

export const dashboardDocumentSchema = z
  .looseObject({
    name: z.string({ error: 'is required' }).min(1, 'must not be empty').max(100),
    owner: z.string({ error: 'is required (a user id, a group id or X-AXIOM-EVERYONE)' }).min(1),
    description: z.string().max(1000).optional(),
    charts: z.array(chartSchema, { error: 'is required (a list of charts)' }).max(200),
    layout: z.array(layoutItem, { error: 'is required (a list of layout items)' }).max(200),
    refreshTime: z.union([z.literal(15), z.literal(60), z.literal(300)], { error: 'must be 15, 60 or 300' }),
    schemaVersion: z.literal(2, { error: 'must be 2' }),
    timeWindowStart: z.string({ error: 'is required' }).min(1).max(100),
    timeWindowEnd: z.string({ error: 'is required' }).min(1).max(100),
    against: z.enum(AGAINST).optional(),
    againstTimestamp: z.string().max(100).optional(),
    uid: z.string().regex(DASHBOARD_UID, DASHBOARD_UID_RULE).optional(),
  })
  .superRefine((document, context) => {
    const seen = new Set<string>();
    document.charts.forEach((chart, index) => {
      if (seen.has(chart.id)) context.addIssue({ code: 'custom', message: `duplicate chart id "${chart.id}"`, path: ['charts', index, 'id'] });
      seen.add(chart.id);
    });
  });

export type DashboardDocument = z.output<typeof dashboardDocumentSchema>;

export const upsertRequestSchema = z.object({
  dashboard: z.record(z.string(), z.unknown(), { error: 'is required (the dashboard document)' }),
  message: z.string().max(1000).optional(),
  overwrite: z.boolean().default(false),
  uid: z.string().regex(DASHBOARD_UID, DASHBOARD_UID_RULE).optional(),
  version: z.number().int().min(0).optional(),
});

export const chartPatchRequestSchema = z.object({
  chart: z.record(z.string(), z.unknown(), { error: 'is required (a JSON merge patch of the chart)' }),
  message: z.string().max(1000).optional(),
  overwrite: z.boolean().default(false),
  version: z.number().int().min(0).optional(),
});
