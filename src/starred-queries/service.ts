// Saved (starred) APL queries (v2 `/apl-starred-queries`), visible to the whole organization.
// They need the `starredQueries` dataset capability on the query's dataset (a query saved without
// a dataset needs it on some dataset). `who` is the user who saved it, set by the server. Lists
// show the caller's own queries unless `who` says `team` (everyone else's), `all`, or a user id
// (someone else's needs `users:read` as well), and can be narrowed by dataset and by a text
// (`qs`) found in the name or the APL, and paged with `limit`/`offset`.
import { z } from 'zod';
import { type Action, datasetsWithCapability, hasDatasetCapability, type Principal, requireOrgCapability } from '../auth/principal';
import { generateSortableId } from '../auth/secrets';
import type { PrismaClient } from '../db/store';
import { forbidden, notFound } from '../errors';
import { DATASET_NAME, DATASET_NAME_RULE } from '../datasets/datasets';
import { parseInput } from '../lib/validation';

export interface StarredQueryView {
  id: string;
  kind: 'apl';
  name: string;
  dataset?: string;
  who: string;
  metadata: Record<string, string>;
  query: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface StarredQueryFilter {
  dataset?: string;
  who?: string;
  qs?: string;
  limit?: number | string;
  offset?: number | string;
}

const queryOptions = z.strictObject({
  disableCache: z.boolean().optional(),
  disableStats: z.boolean().optional(),
  disableTrace: z.boolean().optional(),
  maxDataPoints: z.number().int().optional(),
  maxSeries: z.number().int().optional(),
  noAggregation: z.boolean().optional(),
  noFill: z.boolean().optional(),
  noInterpolation: z.boolean().optional(),
  priority: z.enum(['low', 'medium', 'high']).optional(),
  resolution: z.string().max(100).optional(),
  displayNull: z.enum(['auto', 'null', 'span', 'zero', '']).optional(),
  overlayCharts: z.union([z.boolean(), z.string().max(10)]).optional(),
  shownColumns: z.string().max(10_000).optional(),
  timeSeriesVariant: z.enum(['area', 'bars', 'line', 'lines', '']).optional(),
  timeSeriesView: z.enum(['charts', 'resultsTable', 'charts|resultsTable', '']).optional(),
});

// The APL request as a query page sends it; other request options are kept as they come.
const aplRequest = z.looseObject({
  apl: z.string({ error: 'is required' }).min(1, 'must not be empty').max(500_000),
  startTime: z.string().max(100).optional(),
  endTime: z.string().max(100).optional(),
  queryOptions: queryOptions.optional(),
});

const dataset = z.string().regex(DATASET_NAME, DATASET_NAME_RULE);
const createSchema = z.object({
  kind: z.literal('apl', { error: 'must be "apl"' }).default('apl'),
  name: z.string().trim().min(1, 'is required').max(255),
  dataset: dataset.optional(),
  who: z.string().optional(),
  metadata: z.record(z.string(), z.string().max(10_000)).default({}),
  query: aplRequest,
});
const updateSchema = z.object({
  kind: z.literal('apl', { error: 'must be "apl"' }).optional(),
  name: z.string().trim().min(1, 'is required').max(255).optional(),
  dataset: dataset.nullable().optional(),
  who: z.string().optional(),
  metadata: z.record(z.string(), z.string().max(10_000)).optional(),
  query: aplRequest.optional(),
});
const filterSchema = z.object({
  dataset: dataset.optional(),
  who: z.string().min(1).optional(),
  qs: z.string().max(1000).optional(),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(100),
  offset: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(0),
});

interface StoredQuery {
  id: string;
  kind: string;
  name: string;
  dataset: string | null;
  who: string;
  metadata: string;
  query: string;
  createdAt: Date;
  updatedAt: Date;
}

function viewOf(row: StoredQuery): StarredQueryView {
  return {
    id: row.id,
    kind: 'apl',
    name: row.name,
    ...(row.dataset !== null ? { dataset: row.dataset } : {}),
    who: row.who,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    query: JSON.parse(row.query) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Holds the capability on the dataset, or (without a dataset) on some dataset. */
function holds(principal: Principal, datasetName: string | null | undefined, action: Action): boolean {
  if (datasetName) return hasDatasetCapability(principal, datasetName, 'starredQueries', action);
  const reachable = datasetsWithCapability(principal, 'starredQueries', action);
  return reachable === '*' || reachable.length > 0;
}

function requireHolds(principal: Principal, datasetName: string | null | undefined, action: Action) {
  if (!holds(principal, datasetName, action)) {
    throw forbidden(`token lacks the starredQueries:${action} capability${datasetName ? ` on dataset "${datasetName}"` : ''}`);
  }
}

export class StarredQueryService {
  constructor(private readonly prisma: PrismaClient) {}

  async list(principal: Principal, filter: StarredQueryFilter = {}): Promise<StarredQueryView[]> {
    requireHolds(principal, filter.dataset, 'read');
    const input = parseInput(filterSchema, filter, 'query parameters');
    const me = principal.userId ?? principal.tokenId;
    const who = input.who ?? 'mine';
    if (who !== 'mine' && who !== 'team' && who !== 'all' && who !== me) requireOrgCapability(principal, 'users', 'read');
    const rows = await this.prisma.starredQuery.findMany({
      where: {
        orgId: principal.orgId,
        ...(input.dataset !== undefined ? { dataset: input.dataset } : {}),
        ...(who === 'mine' ? { who: me } : who === 'team' ? { who: { not: me } } : who === 'all' ? {} : { who }),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const text = input.qs?.toLowerCase();
    const visible = rows.filter((row) => {
      if (!holds(principal, row.dataset, 'read')) return false;
      if (!text) return true;
      return row.name.toLowerCase().includes(text) || String((JSON.parse(row.query) as { apl?: unknown }).apl ?? '').toLowerCase().includes(text);
    });
    return visible.slice(input.offset, input.offset + input.limit).map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<StarredQueryView> {
    requireHolds(principal, undefined, 'read');
    const row = await this.find(principal, id);
    requireHolds(principal, row.dataset, 'read');
    return viewOf(row);
  }

  async create(principal: Principal, body: unknown): Promise<StarredQueryView> {
    const input = parseInput(createSchema, body);
    requireHolds(principal, input.dataset, 'create');
    const row = await this.prisma.starredQuery.create({
      data: {
        id: generateSortableId(),
        orgId: principal.orgId,
        kind: input.kind,
        name: input.name,
        dataset: input.dataset ?? null,
        who: principal.userId ?? principal.tokenId,
        metadata: JSON.stringify(input.metadata),
        query: JSON.stringify(input.query),
      },
    });
    return viewOf(row);
  }

  /** Changes what the body names (`dataset: null` removes the dataset); `who` stays who saved it. */
  async update(principal: Principal, id: string, body: unknown): Promise<StarredQueryView> {
    requireHolds(principal, undefined, 'update');
    const existing = await this.find(principal, id);
    requireHolds(principal, existing.dataset, 'update');
    const input = parseInput(updateSchema, body);
    if (input.dataset !== undefined) requireHolds(principal, input.dataset, 'update');
    const row = await this.prisma.starredQuery.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.dataset !== undefined ? { dataset: input.dataset } : {}),
        ...(input.metadata !== undefined ? { metadata: JSON.stringify(input.metadata) } : {}),
        ...(input.query !== undefined ? { query: JSON.stringify(input.query) } : {}),
      },
    });
    return viewOf(row);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireHolds(principal, undefined, 'delete');
    const existing = await this.find(principal, id);
    requireHolds(principal, existing.dataset, 'delete');
    await this.prisma.starredQuery.delete({ where: { id } });
  }

  private async find(principal: Principal, id: string): Promise<StoredQuery> {
    const row = await this.prisma.starredQuery.findFirst({ where: { id, orgId: principal.orgId } });
    if (!row) throw notFound(`starred query "${id}" not found`);
    return row;
  }
}
