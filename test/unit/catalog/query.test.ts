// Unit tests of the pieces behind the catalog routes: the deprecation rule, projection and
// fill-with-zeros, query parameter parsing, CSV rendering and key-based cursors.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/catalog/build';
import { fillWithZeros, filterModels, isDeprecated, projectRecord, todayUtc } from '../../../src/catalog/query';
import type { ModelRecord } from '../../../src/catalog/record';
import { CatalogSnapshot } from '../../../src/catalog/snapshot';
import { connectionFrom, type CursorCodec } from '../../../src/graphql/schema/connection';
import { parseCatalogQuery, ROUTE_PARAMS, splitList } from '../../../src/rest/catalog/params';
import { renderCsv } from '../../../src/rest/shared/formats';

const withDate = (deprecation_date: string | null) => ({ deprecation_date }) as ModelRecord;

describe('deprecation', () => {
  it('counts a model as deprecated from its deprecation date on, in UTC', () => {
    const today = todayUtc(new Date('2026-03-01T23:30:00-05:00'));
    expect(today).toBe('2026-03-02');
    expect(isDeprecated(withDate('2026-03-01'), today)).toBe(true);
    expect(isDeprecated(withDate('2026-03-02'), today)).toBe(true);
    expect(isDeprecated(withDate('2026-03-03'), today)).toBe(false);
    expect(isDeprecated(withDate(null), today)).toBe(false);
    expect(isDeprecated(withDate('soon'), today)).toBe(false);
  });

  it('filters on that rule for true and returns every other model for false', () => {
    const built = buildCatalog({
      old: { litellm_provider: 'openai', deprecation_date: '2024-06-13' },
      today: { litellm_provider: 'openai', deprecation_date: '2026-03-02' },
      later: { litellm_provider: 'openai', deprecation_date: '2026-03-03' },
      never: { litellm_provider: 'openai' },
    });
    const snapshot = new CatalogSnapshot(built.records, {
      id: 1,
      source: 's',
      sourceKind: 'litellm',
      syncedAt: new Date(),
      modelsRead: 4,
      modelsSkipped: 0,
      modelsWritten: 4,
      skipReasons: {},
    });
    const ids = (deprecated: boolean) => filterModels(snapshot, { deprecated }, '2026-03-02').map((model) => model.model_id);
    expect(ids(true)).toEqual(['old', 'today']);
    expect(ids(false)).toEqual(['later', 'never']);
  });
});

describe('projection and fill-with-zeros', () => {
  const model = {
    model_id: 'm',
    max_input_tokens: null,
    cache_read_cost_per_million: null,
    deprecation_date: null,
    notes: null,
    search_context_cost_per_query: { search_context_size_low: null },
  };

  it('projects the existing fields in the order asked', () => {
    expect(Object.keys(projectRecord(model, ['deprecation_date', 'model_id', 'nope']))).toEqual(['deprecation_date', 'model_id']);
  });

  it('turns null into 0 in token and cost fields only, nested ones included', () => {
    expect(fillWithZeros(model)).toEqual({
      model_id: 'm',
      max_input_tokens: 0,
      cache_read_cost_per_million: 0,
      deprecation_date: null,
      notes: null,
      search_context_cost_per_query: { search_context_size_low: null },
    });
    const nested = { search_context_cost_per_query: { high_cost: null } };
    expect(fillWithZeros(nested)).toEqual({ search_context_cost_per_query: { high_cost: 0 } });
    expect(model.max_input_tokens).toBeNull();
  });
});

describe('query parameters', () => {
  it('trims comma lists and drops empty items', () => {
    expect(splitList(' a, ,b,,c ,')).toEqual(['a', 'b', 'c']);
    expect(splitList(',,')).toEqual([]);
  });

  it('reads defaults, flags and pretty by presence', () => {
    expect(parseCatalogQuery({}, ROUTE_PARAMS.models)).toMatchObject({
      format: 'json',
      headers: false,
      fillWithZeros: true,
      pretty: false,
      deprecated: undefined,
    });
    expect(parseCatalogQuery({ pretty: '', headers: 'true', 'fill-with-zeros': 'false' }, ROUTE_PARAMS.models)).toMatchObject({
      pretty: true,
      headers: true,
      fillWithZeros: false,
    });
    expect(parseCatalogQuery({ pretty: 'false' }, ROUTE_PARAMS.models).pretty).toBe(true);
  });

  it('rejects bad values and repeated parameters with a clear message', () => {
    expect(() => parseCatalogQuery({ format: 'xml' }, ROUTE_PARAMS.models)).toThrow('query parameter "format" must be one of json, csv, jsonl (got "xml")');
    expect(() => parseCatalogQuery({ deprecated: 'maybe' }, ROUTE_PARAMS.models)).toThrow(/"deprecated" must be one of true, false/);
    expect(() => parseCatalogQuery({ providers: ['a', 'b'] }, ROUTE_PARAMS.models)).toThrow('query parameter "providers" is given 2 times; give it once');
  });

  it('ignores parameters the route does not take', () => {
    expect(parseCatalogQuery({ deprecated: 'maybe', prefixes: 'x' }, ROUTE_PARAMS.metadata).prefixes).toEqual([]);
  });
});

describe('CSV rendering', () => {
  it('quotes commas, quotes and line breaks, and writes the header line only when asked', () => {
    const rows = [{ a: 'plain', b: 'x, "y"\nz' }, { a: null, b: 2, c: true }];
    const withHeader = renderCsv(rows, undefined, true);
    // Lines joined by newlines, nothing after the last, as modeldb writes them.
    expect(withHeader).toBe('a,b,c\nplain,"x, ""y""\nz",\n,2,true');
    expect(parse(withHeader, { columns: true })).toEqual([
      { a: 'plain', b: 'x, "y"\nz', c: '' },
      { a: '', b: '2', c: 'true' },
    ]);
    expect(renderCsv(rows, ['b'], false)).toBe('"x, ""y""\nz"\n2');
    expect(renderCsv([], ['b'], true)).toBe('');
  });
});

describe('key-based cursors', () => {
  const letters = ['a', 'c', 'e', 'g', 'i'];
  const codec: CursorCodec<string, string> = { kind: 'letter', keyOf: (s) => s, compare: (s, key) => s.localeCompare(key) };
  const page = (args: Parameters<typeof connectionFrom>[1], items = letters) => {
    const connection = connectionFrom(items, args, codec);
    return { nodes: connection.edges.map((edge) => edge.node), ...connection.pageInfo, cursors: connection.edges.map((e) => e.cursor) };
  };

  it('pages forward and backward', () => {
    const first = page({ first: 2 });
    expect(first).toMatchObject({ nodes: ['a', 'c'], hasNextPage: true, hasPreviousPage: false });
    expect(page({ first: 2, after: first.endCursor })).toMatchObject({ nodes: ['e', 'g'], hasNextPage: true, hasPreviousPage: true });
    const last = page({ last: 2 });
    expect(last).toMatchObject({ nodes: ['g', 'i'], hasNextPage: false, hasPreviousPage: true });
    expect(page({ last: 2, before: last.startCursor })).toMatchObject({ nodes: ['c', 'e'] });
    expect(page({ after: first.endCursor, before: last.startCursor })).toMatchObject({ nodes: ['e'] });
  });

  it('finds its place by key when the cursor item is gone', () => {
    const cursorOfE = page({ first: 3 }).cursors[2]!;
    expect(page({ first: 2, after: cursorOfE }, ['a', 'c', 'f', 'g']).nodes).toEqual(['f', 'g']);
  });

  it('rejects foreign cursors and negative sizes', () => {
    expect(() => page({ after: 'bm9wZQ' })).toThrow(/invalid letter cursor/);
    expect(() => page({ first: -1 })).toThrow(/first must be a non-negative integer/);
  });
});
