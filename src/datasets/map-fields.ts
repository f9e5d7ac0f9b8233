// Map fields as the API offers them (/v2/datasets/{id}/mapfields and GraphQL): list, declare,
// replace the list, remove, each under the caller's `datasets` capability; and `ensure`, for
// code that ingests on the caller's behalf and needs a map field to exist (OTLP traces declare
// `attributes.custom` this way).
import { z } from 'zod';
import { requireOrgCapability, type Principal } from '../auth/principal';
import { notFound } from '../errors';
import { parseInput } from '../lib/validation';
import type { DatasetFieldView, DatasetRecord, DatasetService, FieldSource } from './datasets';
import type { DatasetRef } from './schema/field-registry';
import type { MapFieldRegistry } from './schema/map-field-registry';

const mapFieldSchema = z.object({ name: z.string({ error: 'is required' }) });
const mapFieldListSchema = z.array(z.string(), { error: 'must be a list of map field names' });

export class MapFieldService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly registry: MapFieldRegistry,
  ) {}

  async list(principal: Principal, dataset: string): Promise<string[]> {
    const record = await this.datasets.get(principal, dataset);
    requireOrgCapability(principal, 'datasets', 'read');
    return this.registry.list(record.id);
  }

  /** Declares a map field (`{"name": ...}`); events ingested afterwards keep objects under it whole. */
  async create(principal: Principal, dataset: string, body: unknown): Promise<{ name: string }> {
    const record = await this.datasets.get(principal, dataset);
    requireOrgCapability(principal, 'datasets', 'create');
    const { name } = parseInput(mapFieldSchema, body);
    await this.registry.add(record.id, name);
    return { name };
  }

  /** Makes the list exactly the names given (a JSON array of strings); returns it. */
  async replace(principal: Principal, dataset: string, body: unknown): Promise<string[]> {
    const record = await this.datasets.get(principal, dataset);
    requireOrgCapability(principal, 'datasets', 'update');
    return this.registry.replace(record.id, parseInput(mapFieldListSchema, body));
  }

  async delete(principal: Principal, dataset: string, name: string): Promise<void> {
    const record = await this.datasets.get(principal, dataset);
    requireOrgCapability(principal, 'datasets', 'delete');
    if (!(await this.registry.remove(record.id, name))) throw notFound(`map field "${name}" not found in dataset "${record.name}"`);
  }

  /** Makes sure the dataset has this map field, declaring it if need be; cheap once it exists. */
  ensure(dataset: DatasetRef, name: string): Promise<void> {
    return this.registry.ensure(dataset.id, name);
  }

  /** The map fields of each dataset, for dataset descriptions. */
  ofDatasets(datasetIds: readonly string[]): Promise<Map<string, string[]>> {
    return this.registry.listMany(datasetIds);
  }
}

/**
 * Marks map fields in a dataset's field list, and lists the declared ones no event has used yet
 * (type `map`), so the list shows every map field.
 */
export function mapFieldsInFieldList(registry: MapFieldRegistry): FieldSource {
  return {
    async extend(dataset: DatasetRecord, fields: DatasetFieldView[]) {
      const names = await registry.namesOf(dataset.id);
      if (names.size === 0) return fields;
      const listed = fields.map((field) => (names.has(field.name) ? { ...field, mapField: true } : field));
      const unused = [...names].filter((name) => !fields.some((field) => field.name === name));
      const added = unused.map((name) => ({ name, type: 'map', unit: '', description: '', hidden: false, mapField: true }));
      return [...listed, ...added].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}
