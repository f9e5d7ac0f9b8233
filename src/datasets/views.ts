// Views as the API offers them (/v2/views and GraphQL): named APL queries over datasets, usable
// as a source wherever a dataset is (`['my-view'] | ...`, union, join; see view-sources.ts).
// Managing them takes the organization's `views` capability; a view's query is checked when
// it is saved as its author would run it, so no one builds a view over data they cannot query.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { datasetNamesOf, parseQuery } from '../apl';
import { hasOrgCapability, type Principal, requireOrgCapability } from '../auth/principal';
import type { Repository } from '../db/repository';
import type { PrismaClient } from '../db/store';
import { conflict, forbidden, limitExceeded, notFound } from '../errors';
import { parseInput } from '../lib/validation';
import { DATASET_NAME_RULE } from './datasets';
import type { QueryService } from '../queries/query-service';
import { canQueryView } from './view-sources';

/** Views one organization may have. */
export const MAX_VIEWS_PER_ORG = 1000;
const MAX_QUERY_LENGTH = 20_000;
const VIEW_NAME = /^[A-Za-z0-9-]{1,128}$/;

/** Axiom's View, with the id its routes take. */
export interface ViewView {
  id: string;
  name: string;
  description: string;
  aplQuery: string;
  /** The datasets its query reads. */
  datasets: string[];
  who: string;
  createdAt: Date;
  updatedAt: Date;
}

const viewSchema = z.object({
  name: z.string({ error: 'is required' }).regex(VIEW_NAME, DATASET_NAME_RULE.replace('dataset', 'view')),
  aplQuery: z.string({ error: 'is required' }).min(1, 'must not be empty').max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
  description: z.string().max(1024).default(''),
});

interface StoredView {
  id: string;
  name: string;
  description: string;
  aplQuery: string;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

function viewOf(view: StoredView): ViewView {
  let datasets: string[] = [];
  try {
    datasets = datasetNamesOf(parseQuery(view.aplQuery));
  } catch {
    // saved queries parse; a grammar change must not hide the view
  }
  return { id: view.id, name: view.name, description: view.description, aplQuery: view.aplQuery, datasets, who: view.createdBy, createdAt: view.createdAt, updatedAt: view.updatedAt };
}

/** Those who may query a view may see it. */
const canSee = canQueryView;

export class ViewService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly repository: Repository,
    private readonly queries: QueryService,
  ) {}

  /**
   * The organization's views the caller may see, by name. Listing takes the `views:read`
   * capability or the right to query some view, as every capability-guarded list does.
   */
  async list(principal: Principal): Promise<ViewView[]> {
    const queriesSomeView = Object.values(principal.viewCapabilities ?? {}).some((capabilities) => capabilities?.query?.includes('read'));
    if (!hasOrgCapability(principal, 'views', 'read') && !queriesSomeView) throw forbidden('token lacks the views:read capability');
    const views = await this.prisma.view.findMany({ where: { orgId: principal.orgId } });
    return views
      .filter((view) => canSee(principal, view.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<ViewView> {
    return viewOf(await this.find(principal, id));
  }

  async create(principal: Principal, body: unknown): Promise<ViewView> {
    requireOrgCapability(principal, 'views', 'create');
    const input = parseInput(viewSchema, body);
    await this.refuseTaken(principal, input.name);
    if ((await this.prisma.view.count({ where: { orgId: principal.orgId } })) >= MAX_VIEWS_PER_ORG) {
      throw limitExceeded(`an organization may have at most ${MAX_VIEWS_PER_ORG} views`);
    }
    await this.queries.checkViewQuery(principal, input.aplQuery);
    try {
      const created = await this.prisma.view.create({
        data: { id: randomBytes(8).toString('hex'), orgId: principal.orgId, ...input, createdBy: principal.userId ?? principal.tokenId },
      });
      return viewOf(created);
    } catch (error) {
      await this.refuseTaken(principal, input.name); // a concurrent create of the same name
      throw error;
    }
  }

  async update(principal: Principal, id: string, body: unknown): Promise<ViewView> {
    requireOrgCapability(principal, 'views', 'update');
    const existing = await this.find(principal, id);
    const input = parseInput(viewSchema, body);
    if (input.name !== existing.name) await this.refuseTaken(principal, input.name);
    await this.queries.checkViewQuery(principal, input.aplQuery);
    return viewOf(await this.prisma.view.update({ where: { id }, data: input }));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'views', 'delete');
    await this.find(principal, id);
    await this.prisma.view.delete({ where: { id } });
  }

  private async find(principal: Principal, id: string): Promise<StoredView> {
    const view = await this.prisma.view.findUnique({ where: { id } });
    if (!view || view.orgId !== principal.orgId) throw notFound(`view "${id}" not found`);
    if (!canSee(principal, view.name)) throw forbidden(`token has no access to view "${view.name}"`);
    return view;
  }

  /** Views and datasets share one namespace: a source name means one thing. */
  private async refuseTaken(principal: Principal, name: string): Promise<void> {
    if (await this.repository.views.byName(principal.orgId, name)) throw conflict(`view "${name}" already exists`);
    if (await this.repository.datasets.byName(principal.orgId, name)) throw conflict(`a dataset named "${name}" exists; a view needs another name`);
  }
}
