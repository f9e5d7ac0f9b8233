// The query parameters of the catalog routes, defined once: each route's OpenAPI description
// is generated from these definitions, and `parseCatalogQuery` reads a request with them,
// answering bad values (format=xml, deprecated=maybe) and repeated parameters with a 400.
import { invalidInput } from '../../errors';
import { OUTPUT_FORMATS, type OutputFormat } from '../shared/formats';

type ParamKind =
  | { kind: 'list' }
  | { kind: 'choice'; values: readonly string[]; default?: string }
  | { kind: 'presence' };

type ParamSpec = ParamKind & { description: string };

const list = (description: string): ParamSpec => ({ kind: 'list', description });
const boolean = (description: string, fallback?: 'true' | 'false'): ParamSpec => ({
  kind: 'choice',
  values: ['true', 'false'],
  ...(fallback ? { default: fallback } : {}),
  description,
});

const PARAMS = {
  prefixes: list('Comma-separated model id prefixes; a model matches any of them'),
  providers: list('Comma-separated provider ids; a model matches any of them'),
  type: list('Comma-separated model types (chat, completion, embedding, image, audio, moderation, rerank, ...)'),
  capability: list(
    'Comma-separated capabilities a model must all have: function_calling, vision, json_mode, parallel_functions (or any supports_* field)',
  ),
  deprecated: boolean('true: models whose deprecation_date is today (UTC) or earlier; false: all other models'),
  filter: list('Comma-separated provider ids to return'),
  project: list('Comma-separated fields to return, in this order'),
  format: { kind: 'choice', values: OUTPUT_FORMATS, default: 'json', description: 'Response format: json, csv or jsonl (JSON Lines)' },
  headers: boolean('Write the CSV header line (true) or not (false, the default)', 'false'),
  'fill-with-zeros': boolean('Replace null token counts and costs with 0 (default true)', 'true'),
  pretty: { kind: 'presence', description: 'Indent JSON by two spaces; its mere presence enables it (pretty, pretty=, pretty=1)' },
} satisfies Record<string, ParamSpec>;

export type CatalogParam = keyof typeof PARAMS;

const OUTPUT: CatalogParam[] = ['project', 'format', 'headers', 'fill-with-zeros', 'pretty'];

/** The parameters each catalog route accepts. */
export const ROUTE_PARAMS = {
  models: ['prefixes', 'providers', 'type', 'capability', 'deprecated', ...OUTPUT],
  model: OUTPUT,
  providers: ['filter', ...OUTPUT],
  provider: OUTPUT,
  metadata: ['format', 'headers', 'pretty'],
} satisfies Record<string, CatalogParam[]>;

export interface CatalogQuery {
  prefixes: string[];
  providers: string[];
  types: string[];
  capabilities: string[];
  deprecated: boolean | undefined;
  providerFilter: string[];
  project: string[];
  format: OutputFormat;
  headers: boolean;
  fillWithZeros: boolean;
  pretty: boolean;
}

/** The OpenAPI/JSON Schema of a route's query string. */
export function querystringSchema(names: readonly CatalogParam[]) {
  const properties: Record<string, object> = {};
  for (const name of names) {
    const spec: ParamSpec = PARAMS[name];
    properties[name] =
      spec.kind === 'choice'
        ? { type: 'string', enum: [...spec.values], ...(spec.default ? { default: spec.default } : {}), description: spec.description }
        : { type: 'string', description: spec.description };
  }
  return { type: 'object', properties } as const;
}

/** Comma lists are trimmed and their empty items dropped: " a, ,b," is [a, b]. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads the raw `format` early, so that errors about other parameters answer in CSV too. */
export function requestedFormat(query: unknown): OutputFormat | undefined {
  const format = (query as Record<string, unknown> | undefined)?.format;
  return typeof format === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(format) ? (format as OutputFormat) : undefined;
}

export function parseCatalogQuery(query: unknown, accepted: readonly CatalogParam[]): CatalogQuery {
  const raw = (query ?? {}) as Record<string, unknown>;
  const values: Partial<Record<CatalogParam, string>> = {};
  for (const name of accepted) {
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) throw invalidInput(`query parameter "${name}" is given ${value.length} times; give it once`);
    const text = String(value);
    const spec: ParamSpec = PARAMS[name];
    if (spec.kind === 'choice' && !spec.values.includes(text)) {
      throw invalidInput(`query parameter "${name}" must be one of ${spec.values.join(', ')} (got "${text}")`);
    }
    values[name] = text;
  }
  const listOf = (name: CatalogParam) => (values[name] === undefined ? [] : splitList(values[name]));
  const flag = (name: CatalogParam, fallback: boolean) => (values[name] === undefined ? fallback : values[name] === 'true');
  return {
    prefixes: listOf('prefixes'),
    providers: listOf('providers'),
    types: listOf('type'),
    capabilities: listOf('capability'),
    deprecated: values.deprecated === undefined ? undefined : values.deprecated === 'true',
    providerFilter: listOf('filter'),
    project: listOf('project'),
    format: (values.format as OutputFormat | undefined) ?? 'json',
    headers: flag('headers', false),
    fillWithZeros: flag('fill-with-zeros', true),
    pretty: values.pretty !== undefined,
  };
}
