// Dataset management: the registry rows in the relational store (Prisma) and their event
// tables, created, described, updated, trimmed, vacuumed and deleted together. Reads on the
// ingest and query paths (`get`, `list`, `resolveFor`) go through the repository layer instead
// of Prisma, uncached, so a dataset created or deleted through any instance counts at once.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  datasetsWithCapability,
  hasDatasetCapability,
  hasOrgCapability,
  type Principal,
  requireDatasetCapability,
  requireOrgCapability,
} from '../auth/principal';
import type { DatasetRow, Repository } from '../db/repository';
import type { PrismaClient } from '../db/store';
import { conflict, invalidInput, notFound } from '../errors';
import { parseInput } from '../lib/validation';
import { parseDuration } from '../lib/duration';

export const DATASET_NAME_RULE = 'dataset names are 1 to 128 characters of ASCII letters, digits and "-"';
export const DATASET_NAME = /^[A-Za-z0-9-]{1,128}$/;
export const DATASET_KINDS = ['axiom:events:v1', 'otel:logs:v1', 'otel:traces:v1', 'otel:metrics:v1'] as const;
/** Datasets of this kind hold metrics (series and points), queried with MPL; the others hold events. */
export const METRICS_KIND = 'otel:metrics:v1';

/** Refuses event reads and writes on a metrics dataset. */
export function requireEventsDataset(dataset: { name: string; kind?: string }): void {
  if (dataset.kind === METRICS_KIND) {
    throw invalidInput(`dataset "${dataset.name}" is a metrics dataset (${METRICS_KIND}): send metrics to /v1/metrics and query them with MPL (/v1/query/_mpl)`);
  }
}

/** Refuses metrics reads and writes on a dataset that holds events. */
export function requireMetricsDataset(dataset: { name: string; kind: string }): void {
  if (dataset.kind !== METRICS_KIND) {
    throw invalidInput(`dataset "${dataset.name}" holds events (${dataset.kind}), not metrics: create a dataset of kind ${METRICS_KIND} for metrics`);
  }
}

/** What the event store must offer dataset management. */
export interface DatasetStorage {
  createTable(table: string): Promise<void>;
  /**
   * Creates the dataset's table if this instance's event store lacks it (the dataset was created
   * through another instance over the same relational store); refuses a deleted dataset.
   */
  ensureTable(dataset: { id: string; name: string; tableName: string }): Promise<void>;
  dropTable(datasetId: string, table: string): Promise<void>;
  /** Deletes events whose `_time` is before `olderThan`; returns how many. */
  trim(datasetId: string, table: string, olderThan: Date): Promise<number>;
  /** Forgets fields no event holds any more; returns their names. */
  vacuum(datasetId: string, table: string): Promise<string[]>;
}

export type DatasetRecord = DatasetRow;

export interface DatasetFieldView {
  name: string;
  type: string;
  unit: string;
  description: string;
  hidden: boolean;
  /** Declared as a map field: objects ingested under it are kept whole. */
  mapField?: boolean;
  /** A virtual field: computed by its APL expression at query time. */
  virtual?: boolean;
}

/** Fields a dataset lists beside those its events hold, or marks on them (map fields, virtual fields). */
export interface FieldSource {
  extend(dataset: DatasetRecord, fields: DatasetFieldView[]): Promise<DatasetFieldView[]>;
}

const createDatasetSchema = z.object({
  name: z.string({ error: 'is required' }).regex(DATASET_NAME, DATASET_NAME_RULE),
  description: z.string().max(1024).default(''),
  kind: z.enum(DATASET_KINDS).default('axiom:events:v1'),
  retentionDays: z.number().int().min(0).default(0),
  useRetentionPeriod: z.boolean().default(false),
});

const updateDatasetSchema = z.object({
  description: z.string().max(1024).optional(),
  retentionDays: z.number().int().min(0).optional(),
  useRetentionPeriod: z.boolean().optional(),
});

const trimSchema = z.object({ maxDuration: z.string({ error: 'is required' }) });

const updateFieldSchema = z.object({
  name: z.string().optional(),
  type: z.string().optional(),
  unit: z.string().max(64).optional(),
  description: z.string().max(1024).optional(),
  hidden: z.boolean().optional(),
});

export function validateDatasetName(name: string): void {
  if (!DATASET_NAME.test(name)) throw invalidInput(`invalid dataset name "${name}": ${DATASET_NAME_RULE}`);
}

/** True when the principal may see that the dataset exists. */
function canSee(principal: Principal, name: string): boolean {
  if (hasOrgCapability(principal, 'datasets', 'read')) return true;
  const capabilities = principal.datasetCapabilities[name] ?? principal.datasetCapabilities['*'];
  return Object.values(capabilities ?? {}).some((actions) => actions && actions.length > 0);
}

export class DatasetService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly repository: Repository,
    private readonly storage: DatasetStorage,
    private readonly fieldSources: readonly FieldSource[] = [],
    /** Where metrics datasets keep their series and points (events storage when absent). */
    private readonly metricsStorage: DatasetStorage = storage,
  ) {}

  async list(principal: Principal): Promise<DatasetRecord[]> {
    return (await this.repository.datasets.ofOrg(principal.orgId)).filter((row) => canSee(principal, row.name));
  }

  /**
   * The dataset's row when the principal may see it. A dataset the principal holds no
   * capability on answers exactly as one that does not exist, so names cannot be probed.
   */
  private async visible(principal: Principal, name: string): Promise<DatasetRow> {
    const row = await this.repository.datasets.byName(principal.orgId, name);
    if (row && canSee(principal, name)) return row;
    if (!DATASET_NAME.test(name)) throw invalidInput(`invalid dataset name "${name}": ${DATASET_NAME_RULE}`);
    throw notFound(`dataset "${name}" not found`);
  }

  /** The dataset as the principal may see it, or 404. */
  async get(principal: Principal, name: string): Promise<DatasetRecord> {
    return this.visible(principal, name);
  }

  /**
   * The dataset for an operation on its events that needs a capability on it (ingest, query,
   * trim, ...), with its event table in place: 404 when the principal cannot see it, 403 when
   * it can but lacks the capability.
   */
  async resolveFor(
    principal: Principal,
    name: string,
    capability: Parameters<typeof requireDatasetCapability>[2],
    action: Parameters<typeof requireDatasetCapability>[3],
  ): Promise<DatasetRecord> {
    const row = await this.visible(principal, name);
    requireDatasetCapability(principal, name, capability, action);
    await this.storageOf(row.kind).ensureTable(row);
    return row;
  }

  /**
   * The organization's dataset of that name with its event table in place, whatever the caller
   * may do with it: for reading through a view the caller may query.
   */
  async resolveInOrg(orgId: string, name: string): Promise<DatasetRecord | undefined> {
    const row = await this.repository.datasets.byName(orgId, name);
    if (row) await this.storageOf(row.kind).ensureTable(row);
    return row;
  }

  private storageOf(kind: string): DatasetStorage {
    return kind === METRICS_KIND ? this.metricsStorage : this.storage;
  }

  canWrite(principal: Principal, name: string): boolean {
    return hasDatasetCapability(principal, name, 'ingest', 'create');
  }

  /** Names of datasets the principal may run an operation on ("*" when all). */
  reachable(principal: Principal, capability: Parameters<typeof datasetsWithCapability>[1], action: Parameters<typeof datasetsWithCapability>[2]) {
    return datasetsWithCapability(principal, capability, action);
  }

  async create(principal: Principal, body: unknown): Promise<DatasetRecord> {
    requireOrgCapability(principal, 'datasets', 'create');
    const input = parseInput(createDatasetSchema, body);
    if (await this.repository.datasets.byName(principal.orgId, input.name)) throw conflict(`dataset "${input.name}" already exists`);
    const id = randomBytes(8).toString('hex');
    const tableName = `ds_${id}`;
    const storage = this.storageOf(input.kind);
    await storage.createTable(tableName);
    try {
      const created = await this.prisma.dataset.create({
        data: { id, orgId: principal.orgId, ...input, tableName, createdBy: principal.userId ?? principal.tokenId },
      });
      return { ...created };
    } catch (error) {
      await storage.dropTable(id, tableName);
      // A concurrent create of the same name loses the unique constraint race.
      if (await this.repository.datasets.byName(principal.orgId, input.name)) throw conflict(`dataset "${input.name}" already exists`);
      throw error;
    }
  }

  async update(principal: Principal, name: string, body: unknown): Promise<DatasetRecord> {
    requireOrgCapability(principal, 'datasets', 'update');
    const dataset = await this.get(principal, name);
    const input = parseInput(updateDatasetSchema, body);
    const updated = await this.prisma.dataset.update({ where: { id: dataset.id }, data: input });
    return { ...updated };
  }

  async delete(principal: Principal, name: string): Promise<void> {
    requireOrgCapability(principal, 'datasets', 'delete');
    const dataset = await this.get(principal, name);
    await this.prisma.dataset.delete({ where: { id: dataset.id } });
    await this.storageOf(dataset.kind).dropTable(dataset.id, dataset.tableName);
  }

  /** Deletes events older than `maxDuration` before now. */
  async trim(principal: Principal, name: string, body: unknown, now = Date.now()): Promise<{ numDeleted: number }> {
    const dataset = await this.resolveFor(principal, name, 'trim', 'update');
    const { maxDuration } = parseInput(trimSchema, body);
    const olderThan = new Date(now - parseDuration(maxDuration, 'maxDuration'));
    return { numDeleted: await this.storageOf(dataset.kind).trim(dataset.id, dataset.tableName, olderThan) };
  }

  async vacuum(principal: Principal, name: string): Promise<{ fieldsRemoved: string[] }> {
    const dataset = await this.resolveFor(principal, name, 'vacuum', 'update');
    return { fieldsRemoved: await this.storageOf(dataset.kind).vacuum(dataset.id, dataset.tableName) };
  }

  async fields(principal: Principal, name: string): Promise<DatasetFieldView[]> {
    const dataset = await this.get(principal, name);
    const stored = await this.prisma.datasetField.findMany({ where: { datasetId: dataset.id }, orderBy: { name: 'asc' } });
    let fields = stored.map(fieldView);
    for (const source of this.fieldSources) fields = await source.extend(dataset, fields);
    return fields;
  }

  async field(principal: Principal, name: string, fieldName: string): Promise<DatasetFieldView> {
    const field = (await this.fields(principal, name)).find((candidate) => candidate.name === fieldName);
    if (!field) throw notFound(`field "${fieldName}" not found in dataset "${name}"`);
    return field;
  }

  async updateField(principal: Principal, name: string, fieldName: string, body: unknown): Promise<DatasetFieldView> {
    requireOrgCapability(principal, 'datasets', 'update');
    const dataset = await this.get(principal, name);
    const field = await this.findField(dataset, fieldName);
    const input = parseInput(updateFieldSchema, body);
    if (input.name !== undefined && input.name !== field.name) throw invalidInput('a field cannot be renamed: "name" must match the path');
    if (input.type !== undefined && input.type !== field.type) {
      throw invalidInput(`the type of a field follows its data and cannot be set (it is "${field.type}")`);
    }
    const updated = await this.prisma.datasetField.update({
      where: { datasetId_name: { datasetId: dataset.id, name: field.name } },
      data: { unit: input.unit, description: input.description, hidden: input.hidden },
    });
    return fieldView(updated);
  }

  private async findField(dataset: DatasetRecord, fieldName: string) {
    const field = await this.prisma.datasetField.findUnique({ where: { datasetId_name: { datasetId: dataset.id, name: fieldName } } });
    if (!field) throw notFound(`field "${fieldName}" not found in dataset "${dataset.name}"`);
    return field;
  }
}

function fieldView(field: DatasetFieldView): DatasetFieldView {
  return { name: field.name, type: field.type, unit: field.unit, description: field.description, hidden: field.hidden };
}
