// GraphQL over metrics: `metrics(dataset, mpl, startTime, endTime)` runs an MPL query on a
// metrics dataset through the same service as POST /v1/query/_mpl and returns its series typed.
import { MAX_SERIES } from '../../metrics/mpl/execution/execute';
import type { MetricsAnswer, MetricsMetadata, MetricsSeries } from '../../metrics/mpl/execution/result';
import { builder } from './builder';
import { restBody } from './rest-body';

const MetricsMetadataRef = builder.objectRef<MetricsMetadata>('MetricsMetadata').implement({
  description: 'About the answer of an MPL query',
  fields: (t) => ({
    groupKeys: t.stringList({ description: 'The tags the query grouped by', resolve: (metadata) => metadata.group_keys }),
    warnings: t.exposeStringList('warnings'),
    unit: t.exposeString('unit', { description: "The metric's unit when the values keep it, else empty" }),
    customUnit: t.string({ description: 'set custom_unit = "...", else empty', resolve: (metadata) => metadata.custom_unit }),
    ignoreUnit: t.boolean({ description: "True when the values are not in the metric's unit", resolve: (metadata) => metadata.ignore_unit }),
  }),
});

const MetricsSeriesRef = builder.objectRef<MetricsSeries>('MetricsSeries').implement({
  description: 'One series of an MPL answer: data[i] is the value at start + i * resolution',
  fields: (t) => ({
    metric: t.exposeString('metric'),
    tags: t.field({ type: 'JSON', description: 'Tag name to value (strings, numbers, booleans)', resolve: (series) => series.tags }),
    start: t.float({ description: 'Time of the first value, Unix seconds', resolve: (series) => series.start }),
    startTime: t.field({ type: 'DateTime', description: 'Time of the first value', resolve: (series) => new Date(series.start * 1000) }),
    resolution: t.int({ description: 'Seconds between two values', resolve: (series) => series.resolution }),
    data: t.field({ type: ['Float'], nullable: { list: false, items: true }, description: 'Values on the grid, null where there is none', resolve: (series) => series.data }),
    summary: t.float({ nullable: true, description: 'The last value', resolve: (series) => series.summary }),
  }),
});

const MetricsResultRef = builder.objectRef<MetricsAnswer>('MetricsResult').implement({
  description: 'The answer of an MPL query, as POST /v1/query/_mpl gives it',
  fields: (t) => ({
    metadata: t.field({ type: MetricsMetadataRef, resolve: (answer) => answer.metadata }),
    // The GraphQL cost limit counts an answer's series at their most.
    series: t.field({ type: [MetricsSeriesRef], extensions: { maxItems: MAX_SERIES }, resolve: (answer) => answer.series }),
  }),
});

builder.queryFields((t) => ({
  metrics: t.field({
    type: MetricsResultRef,
    description: 'Runs an MPL query on a metrics dataset (the query names the dataset in its source, e.g. `my-metrics`:cpu)',
    args: {
      dataset: t.arg.string({ required: true, description: 'The metrics dataset the query reads' }),
      mpl: t.arg.string({ required: true }),
      startTime: t.arg.string({ description: 'RFC 3339 or relative (now-1h)' }),
      endTime: t.arg.string({ description: 'RFC 3339 or relative (now)' }),
      params: t.arg({ type: 'JSON', description: 'Parameter values as MPL literals: {"param__name": "\\"text\\""}' }),
    },
    resolve: async (_root, args, context) => {
      const principal = context.principal();
      // Resolving first gives the usual 404/403 and refuses datasets that hold events.
      await context.services.metrics.resolve(principal, args.dataset, 'query');
      const body = restBody({ mpl: args.mpl, startTime: args.startTime, endTime: args.endTime, params: args.params });
      return context.services.metrics.query(principal, body, {}, { dataset: args.dataset, signal: context.signal });
    },
  }),
}));
