// GraphQL for a model's price history: `Model.priceHistory` lists the periods during which each
// set of prices was in force (see src/catalog/price-history.ts), so a client can show when a
// provider changed its prices and mark those changes on a time axis. Public, like the catalog.
import type { PricePeriod } from '../../catalog/price-history';
import { builder } from './builder';
import { ModelRef } from './catalog';

const perMillion = (perToken: number | null) => (perToken === null ? null : perToken * 1_000_000);

const PricePeriodRef = builder.objectRef<PricePeriod>('ModelPricePeriod').implement({
  description: 'A period during which a model had one set of prices',
  fields: (t) => ({
    validFrom: t.field({ type: 'DateTime', nullable: true, description: 'Start (inclusive); null: since the beginning', resolve: (period) => period.validFrom }),
    validTo: t.field({ type: 'DateTime', nullable: true, description: 'End (exclusive); null while the prices are current', resolve: (period) => period.validTo }),
    inputCostPerToken: t.float({ description: 'USD', resolve: (period) => period.inputCostPerToken }),
    inputCostPerMillion: t.float({ description: 'USD per million tokens', resolve: (period) => period.inputCostPerToken * 1_000_000 }),
    outputCostPerToken: t.float({ description: 'USD', resolve: (period) => period.outputCostPerToken }),
    outputCostPerMillion: t.float({ description: 'USD per million tokens', resolve: (period) => period.outputCostPerToken * 1_000_000 }),
    cacheReadCostPerToken: t.float({ nullable: true, resolve: (period) => period.cacheReadCostPerToken }),
    cacheReadCostPerMillion: t.float({ nullable: true, resolve: (period) => perMillion(period.cacheReadCostPerToken) }),
    cacheWriteCostPerToken: t.float({ nullable: true, resolve: (period) => period.cacheWriteCostPerToken }),
    cacheWriteCostPerMillion: t.float({ nullable: true, resolve: (period) => perMillion(period.cacheWriteCostPerToken) }),
  }),
});

builder.objectField(ModelRef, 'priceHistory', (t) =>
  t.field({
    type: [PricePeriodRef],
    description: "The model's price periods, oldest first: every sync that changed its prices closed one period and opened the next",
    resolve: (model, _args, context) => context.services.catalog.priceHistory(model.model_id),
  }),
);
