// Who may tail a dataset: exactly who may query it (the dataset's query:read capability through
// the principal), with a filter that parses as one APL predicate and binds to the dataset's
// fields. Asked when subscribing and again periodically while the stream is open.
import { parseExpression } from '../apl';
import type { Principal } from '../auth/principal';
import type { AplLimits } from '../config';
import { notFound } from '../errors';
import { type DatasetService, requireEventsDataset, validateDatasetName } from '../datasets/datasets';
import type { QueryService } from '../queries/query-service';
import type { TailDataset } from './tail';

export class LiveTailAccess {
  constructor(
    private readonly datasets: DatasetService,
    private readonly queries: QueryService,
    private readonly limits: AplLimits,
  ) {}

  /** The dataset the principal may tail; refuses a bad name, missing rights and a bad filter. */
  async authorize(principal: Principal, name: string, filter: string | undefined): Promise<TailDataset> {
    validateDatasetName(name);
    const dataset = await this.datasets.resolveFor(principal, name, 'query', 'read');
    requireEventsDataset(dataset);
    if (filter !== undefined) {
      parseExpression(filter, this.limits); // one predicate, nothing more
      await this.queries.describe(principal, `['${name}']\n| where (\n${filter}\n)`);
    }
    return { id: dataset.id, name: dataset.name, orgId: dataset.orgId };
  }

  /** Checks again that the principal may tail the same dataset (not one recreated under its name). */
  async confirm(principal: Principal, dataset: TailDataset): Promise<void> {
    const again = await this.authorize(principal, dataset.name, undefined);
    if (again.id !== dataset.id) throw notFound(`dataset "${dataset.name}" was deleted`);
  }
}
