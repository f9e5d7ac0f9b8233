// Views as query sources: when a query names something that is not a dataset, this finds the
// view of that name, checks that the caller may query it, and resolves the datasets the view's
// query reads on the view's authority, so a caller allowed to query the view reads through it
// without rights on those datasets. Definitions are read through the repository layer on every
// query, so a change counts at once on every instance.
import { datasetNamesOf, parseQuery, type ViewSource } from '../apl';
import { hasOrgCapability, hasViewCapability, type Principal } from '../auth/principal';
import type { Repository } from '../db/repository';
import { forbidden, notFound } from '../errors';
import { type DatasetRecord, type DatasetService, requireEventsDataset } from './datasets';
import type { DatasetSchema } from '../fields/schema';

/**
 * May the principal query the view? With the organization's `views` read capability, or with
 * the view capability `query` granted on the view's name (or on every view, "*").
 */
export function canQueryView(principal: Principal, name: string): boolean {
  return hasOrgCapability(principal, 'views', 'read') || hasViewCapability(principal, name, 'query', 'read');
}

export class ViewSources {
  constructor(
    private readonly repository: Repository,
    private readonly datasets: DatasetService,
    private readonly schemaOf: (dataset: DatasetRecord) => Promise<DatasetSchema>,
  ) {}

  /** The views among `names`, expanded; names of neither datasets nor views are left out. */
  async resolve(principal: Principal, names: string[]): Promise<ViewSource[]> {
    const views: ViewSource[] = [];
    for (const name of names) {
      const row = await this.repository.views.byName(principal.orgId, name);
      if (!row) continue;
      if (!canQueryView(principal, name)) throw forbidden(`token lacks the query:read capability on view "${name}"`);
      const query = parseQuery(row.aplQuery);
      const datasets = await Promise.all(
        datasetNamesOf(query).map(async (read) => {
          const dataset = await this.datasets.resolveInOrg(principal.orgId, read);
          if (!dataset) throw notFound(`view "${name}" reads dataset "${read}", which does not exist`);
          requireEventsDataset(dataset);
          return this.schemaOf(dataset);
        }),
      );
      views.push({ name, query, datasets });
    }
    return views;
  }
}
