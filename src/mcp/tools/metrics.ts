// Metrics tools: discover the metrics, tags and tag values of a metrics dataset, and run MPL.
// Answers are capped in series and points so that a wide query cannot flood an agent's context.
import { z } from 'zod';
import { csvRow } from '../../rest/shared/csv';
import { RESULT_BUDGET_BYTES } from '../fit-result';
import { defineTool } from '../tool-kit';

/** Values (series × points) one answer carries at most. */
export const MAX_METRIC_VALUES = 5_000;

const dataset = z.string().min(1).max(128).describe('A metrics dataset (kind "metrics" in listDatasets)');
const startTime = z.string().max(100).default('now-1d').describe('RFC 3339 or relative (now-1h)');
const endTime = z.string().max(100).default('now').describe('RFC 3339 or relative');
const search = z.string().max(200).optional().describe('Only names containing this (case-insensitive)');

const contains = (text: string, wanted: string | undefined) => wanted === undefined || text.toLowerCase().includes(wanted.toLowerCase());

export const listMetrics = defineTool({
  name: 'listMetrics',
  title: 'List metrics',
  description: 'Lists the metrics of a metrics dataset that have points in the time window, with their type, temporality and unit.',
  input: { dataset, search, startTime, endTime },
  output: {
    metrics: z.array(z.object({ name: z.string(), type: z.string(), temporality: z.string().nullable(), unit: z.string().nullable() })),
  },
  async run(args, context) {
    const found = await context.services.metrics.metrics(context.principal, args.dataset, args.startTime, args.endTime);
    const metrics = Object.entries(found)
      .filter(([name]) => contains(name, args.search))
      .map(([name, info]) => ({ name, type: info.type, temporality: info.temporality, unit: info.unit }));
    const text = [csvRow(['name', 'type', 'temporality', 'unit']), ...metrics.map((m) => csvRow([m.name, m.type, m.temporality, m.unit]))].join('\n');
    return { structured: { metrics }, text };
  },
});

export const listMetricTags = defineTool({
  name: 'listMetricTags',
  title: 'List metric tags',
  description: 'Lists the tags (attributes) of a metrics dataset, or of one metric, in the time window: what MPL can filter and group by.',
  input: { dataset, metric: z.string().min(1).max(1000).optional().describe('Only the tags of this metric'), startTime, endTime },
  output: { tags: z.array(z.string()) },
  async run(args, context) {
    const tags = await context.services.metrics.tags(context.principal, args.dataset, args.startTime, args.endTime, args.metric);
    return { structured: { tags }, text: tags.join('\n') };
  },
});

export const getMetricTagValues = defineTool({
  name: 'getMetricTagValues',
  title: 'Get metric tag values',
  description: 'Lists the values of one tag of a metrics dataset (optionally of one metric) in the time window.',
  input: {
    dataset,
    tag: z.string().min(1).max(1000).describe('The tag, from listMetricTags'),
    search: z.string().max(200).optional().describe('Only values containing this (case-insensitive)'),
    metric: z.string().min(1).max(1000).optional().describe('Only values of this metric'),
    startTime,
    endTime,
  },
  output: { values: z.array(z.union([z.string(), z.number(), z.boolean()])), more: z.number() },
  async run(args, context) {
    const all = await context.services.metrics.tagValues(context.principal, args.dataset, args.tag, args.startTime, args.endTime, args.metric);
    const matching = all.filter((value) => contains(String(value), args.search));
    const values = matching.slice(0, 1_000);
    return { structured: { values, more: matching.length - values.length }, text: values.map(String).join('\n') };
  },
});

const seriesSchema = z.object({
  metric: z.string(),
  tags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  start: z.number().describe('Unix seconds of the first value'),
  resolution: z.number().describe('Seconds between values'),
  data: z.array(z.number().nullable()),
});

export const queryMetrics = defineTool({
  name: 'queryMetrics',
  title: 'Run an MPL query',
  description:
    'Runs an MPL (metrics query language) query over a metrics dataset, e.g. "`my-metrics`:`cpu.usage` | where `host` == \\"web-1\\" | align to 1m using avg | group by `host` using max". ' +
    `Returns series of values on a grid (value i at start + i × resolution); at most ${MAX_METRIC_VALUES} values in all, then truncated.`,
  input: {
    mpl: z.string().min(1).max(100_000).describe('The MPL query'),
    startTime: z.string().max(100).default('now-1h').describe('RFC 3339 or relative'),
    endTime: z.string().max(100).default('now').describe('RFC 3339 or relative'),
  },
  output: {
    series: z.array(seriesSchema),
    totalSeries: z.number(),
    truncated: z.boolean(),
    omittedSeries: z.number(),
    groupKeys: z.array(z.string()),
    unit: z.string(),
    warnings: z.array(z.string()),
  },
  async run({ mpl, startTime, endTime }, context) {
    const answer = await context.services.metrics.query(context.principal, { mpl, startTime, endTime }, {}, { signal: context.signal });
    const series: z.infer<typeof seriesSchema>[] = [];
    let values = 0;
    let bytes = 0;
    for (const entry of answer.series) {
      const kept = { metric: entry.metric, tags: entry.tags, start: entry.start, resolution: entry.resolution, data: entry.data };
      const size = Buffer.byteLength(JSON.stringify(kept)) * 2;
      if (values + entry.data.length > MAX_METRIC_VALUES || bytes + size > RESULT_BUDGET_BYTES - 4_000) break;
      values += entry.data.length;
      bytes += size;
      series.push(kept);
    }
    const omittedSeries = answer.series.length - series.length;
    const structured = {
      series,
      totalSeries: answer.series.length,
      truncated: omittedSeries > 0,
      omittedSeries,
      groupKeys: answer.metadata.group_keys,
      unit: answer.metadata.custom_unit || answer.metadata.unit,
      warnings: answer.metadata.warnings,
    };
    const lines = [csvRow(['metric', 'tags', 'start', 'resolution', 'data']), ...series.map((s) => csvRow([s.metric, s.tags, s.start, s.resolution, s.data.join(' ')]))];
    if (omittedSeries > 0) lines.push('', `${omittedSeries} of ${answer.series.length} series left out: filter with where, group by fewer tags or align to a coarser step.`);
    return { structured, text: lines.join('\n') };
  },
});
