// Dataset tools: which datasets the token can query (and which tools fit each kind), and a
// dataset's schema with field types, units, descriptions, map fields, virtual fields and,
// on request, one recent event.
import { z } from 'zod';
import { resultRows } from '../../apl';
import { datasetsWithCapability, hasDatasetCapability, type Principal } from '../../auth/principal';
import { METRICS_KIND } from '../../datasets/datasets';
import { DomainError } from '../../errors';
import { csvRow } from '../../rest/shared/csv';
import { cutStrings } from '../fit-result';
import { defineTool, type ToolContext } from '../tool-kit';

const kindOf = (kind: string) => (kind === METRICS_KIND ? ('metrics' as const) : ('events' as const));

/** A dataset the principal may query, as a missing one otherwise (names cannot be probed). */
export async function queryableDataset(context: ToolContext, name: string) {
  return context.services.datasets.resolveFor(context.principal, name, 'query', 'read');
}

function queryable(principal: Principal, name: string) {
  const reachable = datasetsWithCapability(principal, 'query', 'read');
  return reachable === '*' || hasDatasetCapability(principal, name, 'query', 'read');
}

export const listDatasets = defineTool({
  name: 'listDatasets',
  title: 'List datasets',
  description:
    'Lists the datasets this token can query, with their kind and description. Start here. ' +
    'For "events" datasets (logs, traces, any JSON events) use getDatasetSchema, then queryApl (APL). ' +
    'For "metrics" datasets (OpenTelemetry metrics) use listMetrics, listMetricTags, getMetricTagValues and queryMetrics (MPL). ' +
    'Datasets of LLM calls (OpenTelemetry GenAI spans) also work with getLlmUsage.',
  input: {
    prefix: z.string().max(128).optional().describe('Only datasets whose name starts with this'),
  },
  output: {
    datasets: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(['events', 'metrics']).describe('events: query with queryApl; metrics: query with queryMetrics'),
        datasetKind: z.string().describe('The stored kind, e.g. axiom:events:v1, otel:traces:v1, otel:metrics:v1'),
        description: z.string(),
      }),
    ),
  },
  async run({ prefix }, context) {
    const rows = await context.services.datasets.list(context.principal);
    const datasets = rows
      .filter((row) => queryable(context.principal, row.name) && (prefix === undefined || row.name.startsWith(prefix)))
      .map((row) => ({ name: row.name, kind: kindOf(row.kind), datasetKind: row.kind, description: row.description }));
    const text = [csvRow(['name', 'kind', 'datasetKind', 'description']), ...datasets.map((d) => csvRow([d.name, d.kind, d.datasetKind, d.description]))].join('\n');
    return { structured: { datasets }, text };
  },
});

const fieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  unit: z.string(),
  description: z.string(),
  hidden: z.boolean(),
  mapField: z.boolean().describe('Objects under it are kept whole: read keys with field["key"]'),
  virtual: z.boolean().describe('Computed at query time from its expression'),
});

export const getDatasetSchema = defineTool({
  name: 'getDatasetSchema',
  title: 'Get a dataset schema',
  description:
    'The fields of an events dataset with their types, units and descriptions, its map fields and virtual fields, ' +
    'and optionally its most recent event. Use it before writing APL, to get field names right ' +
    '(names with dots or dashes are written ["name.with.dots"] in APL).',
  input: {
    dataset: z.string().min(1).max(128).describe('Dataset name, as listDatasets gives it'),
    sample: z.boolean().default(false).describe('Also return the most recent event'),
  },
  output: {
    dataset: z.string(),
    kind: z.enum(['events', 'metrics']),
    fields: z.array(fieldSchema),
    mapFields: z.array(z.string()),
    virtualFields: z.array(z.object({ name: z.string(), expression: z.string(), type: z.string(), unit: z.string(), description: z.string() })),
    sample: z.record(z.string(), z.unknown()).nullable().optional().describe('The most recent event (long values cut), null when the dataset is empty'),
    note: z.string().optional(),
  },
  async run({ dataset, sample }, context) {
    const record = await queryableDataset(context, dataset);
    const kind = kindOf(record.kind);
    if (kind === 'metrics') {
      const note = 'a metrics dataset: use listMetrics, listMetricTags and queryMetrics (MPL) on it';
      return { structured: { dataset, kind, fields: [], mapFields: [], virtualFields: [], note }, text: note };
    }
    const views = await context.services.datasets.fields(context.principal, dataset);
    const fields = views.map((field) => ({
      name: field.name,
      type: field.type,
      unit: field.unit,
      description: field.description,
      hidden: field.hidden,
      mapField: field.mapField === true,
      virtual: field.virtual === true,
    }));
    const virtualFields = await context.services.virtualFields.list(context.principal, dataset).catch((error: unknown) => {
      if (error instanceof DomainError && (error.kind === 'forbidden' || error.kind === 'not_found')) return [];
      throw error;
    });
    let event: Record<string, unknown> | null | undefined;
    if (sample) {
      const answer = await context.services.queries.apl(context.principal, { apl: `['${dataset}'] | sort by _time desc | take 1`, limit: 1 }, { signal: context.signal });
      event = (cutStrings(resultRows(answer)[0] ?? null, 500) as Record<string, unknown> | null) ?? null;
    }
    const structured = {
      dataset,
      kind,
      fields,
      mapFields: fields.filter((field) => field.mapField).map((field) => field.name),
      virtualFields: virtualFields.map(({ name, expression, type, unit, description }) => ({ name, expression, type, unit, description })),
      ...(sample ? { sample: event ?? null } : {}),
    };
    const lines = [
      csvRow(['name', 'type', 'unit', 'description', 'mapField', 'virtual']),
      ...fields.map((f) => csvRow([f.name, f.type, f.unit, f.description, f.mapField, f.virtual])),
    ];
    if (structured.virtualFields.length > 0) lines.push('', 'virtual fields:', ...structured.virtualFields.map((f) => `${f.name} = ${f.expression}`));
    if (sample) lines.push('', `sample: ${JSON.stringify(event ?? null)}`);
    return { structured, text: lines.join('\n') };
  },
});
