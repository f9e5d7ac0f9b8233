// Virtual fields as the API offers them (/v2/vfields and GraphQL): list a dataset's, get,
// create, update and delete, under the caller's `virtualFields` capability on the dataset. A
// virtual field is an APL expression evaluated at query time: queries over the dataset read the
// definitions through the repository layer (`definitionsOf`) and the APL analyzer binds them as
// fields of the dataset, so changes count at the next query on every instance.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type AplType, describeVirtualFields, parseExpression } from '../apl';
import { type Action, type Principal, requireDatasetCapability } from '../auth/principal';
import type { Repository } from '../db/repository';
import type { PrismaClient } from '../db/store';
import { conflict, invalidInput, limitExceeded, notFound } from '../errors';
import { parseInput } from '../lib/validation';
import type { DatasetFieldView, DatasetRecord, DatasetService, FieldSource } from './datasets';
import { validateFieldName } from './field-names';
import type { VirtualFieldSource } from '../fields/schema';
import type { FieldRegistry } from './schema/field-registry';

/** Virtual fields one dataset may have. */
export const MAX_VIRTUAL_FIELDS_PER_DATASET = 500;
const MAX_EXPRESSION_LENGTH = 10_000;

/** Axiom's VirtualFieldWithId. */
export interface VirtualFieldView {
  id: string;
  dataset: string;
  name: string;
  expression: string;
  description: string;
  type: string;
  unit: string;
}

const virtualFieldSchema = z.object({
  dataset: z.string({ error: 'is required' }).min(1, 'must not be empty'),
  name: z.string({ error: 'is required' }),
  expression: z.string({ error: 'is required' }).max(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`),
  description: z.string().max(1024).default(''),
  type: z.string().max(64).default(''),
  unit: z.string().max(64).default(''),
});

/** The field type name the fields list shows for an APL type. */
const FIELD_TYPE_OF: Record<AplType, string> = {
  string: 'string',
  int: 'integer',
  real: 'float',
  bool: 'boolean',
  datetime: 'datetime',
  timespan: 'timespan',
  dynamic: 'dynamic',
  null: 'unknown',
};

interface StoredVirtualField {
  id: string;
  name: string;
  expression: string;
  description: string;
  type: string;
  unit: string;
  dataset: { name: string };
}

const viewOf = (field: StoredVirtualField): VirtualFieldView => ({
  id: field.id,
  dataset: field.dataset.name,
  name: field.name,
  expression: field.expression,
  description: field.description,
  type: field.type,
  unit: field.unit,
});

export class VirtualFieldService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly repository: Repository,
    private readonly datasets: DatasetService,
  ) {}

  /** The dataset's virtual fields, in definition order (`GET /v2/vfields?dataset=`). */
  async list(principal: Principal, dataset: string | undefined): Promise<VirtualFieldView[]> {
    if (dataset === undefined || dataset === '') throw invalidInput('the "dataset" query parameter is required');
    const record = await this.dataset(principal, dataset, 'read');
    const fields = await this.prisma.virtualField.findMany({
      where: { datasetId: record.id },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      include: { dataset: { select: { name: true } } },
    });
    return fields.map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<VirtualFieldView> {
    const field = await this.find(principal, id, 'read');
    return viewOf(field);
  }

  async create(principal: Principal, body: unknown): Promise<VirtualFieldView> {
    const input = this.validate(body);
    const dataset = await this.dataset(principal, input.dataset, 'create');
    const count = await this.prisma.virtualField.count({ where: { datasetId: dataset.id } });
    if (count >= MAX_VIRTUAL_FIELDS_PER_DATASET) throw limitExceeded(`a dataset may have at most ${MAX_VIRTUAL_FIELDS_PER_DATASET} virtual fields`);
    await this.refuseTaken(dataset, input.name);
    const last = await this.prisma.virtualField.aggregate({ where: { datasetId: dataset.id }, _max: { position: true } });
    try {
      const created = await this.prisma.virtualField.create({
        data: {
          id: randomBytes(8).toString('hex'),
          datasetId: dataset.id,
          name: input.name,
          expression: input.expression,
          description: input.description,
          type: input.type,
          unit: input.unit,
          position: (last._max.position ?? 0) + 1,
          createdBy: principal.userId ?? principal.tokenId,
        },
        include: { dataset: { select: { name: true } } },
      });
      return viewOf(created);
    } catch (error) {
      await this.refuseTaken(dataset, input.name); // a concurrent create of the same name
      throw error;
    }
  }

  /** Replaces the definition; its place among the dataset's virtual fields stays. */
  async update(principal: Principal, id: string, body: unknown): Promise<VirtualFieldView> {
    const existing = await this.find(principal, id, 'update');
    const input = this.validate(body);
    if (input.dataset !== existing.dataset.name) throw invalidInput(`a virtual field cannot move to another dataset (it belongs to "${existing.dataset.name}")`);
    const dataset = await this.dataset(principal, input.dataset, 'update');
    if (input.name !== existing.name) await this.refuseTaken(dataset, input.name);
    const updated = await this.prisma.virtualField.update({
      where: { id },
      data: { name: input.name, expression: input.expression, description: input.description, type: input.type, unit: input.unit },
      include: { dataset: { select: { name: true } } },
    });
    return viewOf(updated);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    await this.find(principal, id, 'delete');
    await this.prisma.virtualField.delete({ where: { id } });
  }

  /** What queries bind: the dataset's definitions, as they are now (the repository's hot path). */
  definitionsOf(datasetId: string): Promise<VirtualFieldSource[]> {
    return this.repository.virtualFields.of(datasetId);
  }


  private validate(body: unknown) {
    const input = parseInput(virtualFieldSchema, body);
    validateFieldName(input.name, 'virtual field');
    try {
      parseExpression(input.expression);
    } catch (error) {
      throw invalidInput(`invalid expression: ${(error as Error).message}`);
    }
    return input;
  }

  private async dataset(principal: Principal, name: string, action: Action): Promise<DatasetRecord> {
    const dataset = await this.datasets.get(principal, name);
    requireDatasetCapability(principal, dataset.name, 'virtualFields', action);
    return dataset;
  }

  /** The virtual field if it is in the caller's organization and the caller may `action` it. */
  private async find(principal: Principal, id: string, action: Action): Promise<StoredVirtualField> {
    const field = await this.prisma.virtualField.findUnique({ where: { id }, include: { dataset: { select: { name: true, orgId: true } } } });
    if (!field || field.dataset.orgId !== principal.orgId) throw notFound(`virtual field "${id}" not found`);
    await this.dataset(principal, field.dataset.name, action);
    return field;
  }

  private async refuseTaken(dataset: DatasetRecord, name: string): Promise<void> {
    const taken = await this.prisma.virtualField.findUnique({ where: { datasetId_name: { datasetId: dataset.id, name } } });
    if (taken) throw conflict(`dataset "${dataset.name}" already has a virtual field "${name}"`);
  }
}

/**
 * Lists a dataset's virtual fields among its fields, flagged `virtual`, with the type their
 * expression has over the dataset as it is now; one named like a stored field takes its place,
 * as it does in queries.
 */
export function virtualFieldsInFieldList(prisma: PrismaClient, fields: FieldRegistry): FieldSource {
  return {
    async extend(dataset: DatasetRecord, listed: DatasetFieldView[]) {
      const defined = await prisma.virtualField.findMany({ where: { datasetId: dataset.id }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
      if (defined.length === 0) return listed;
      const schema = { ...(await fields.schemaOf(dataset)), virtualFields: defined };
      const types = describeVirtualFields(schema, BigInt(Date.now()) * 1_000_000n);
      const virtual = defined.map((field, i): DatasetFieldView => {
        const type = types[i]?.type;
        return { name: field.name, type: type ? FIELD_TYPE_OF[type] : 'unknown', unit: field.unit, description: field.description, hidden: false, virtual: true };
      });
      const names = new Set(virtual.map((field) => field.name));
      return [...listed.filter((field) => !names.has(field.name)), ...virtual].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}
