// The map fields of each dataset: the names under which ingest keeps an event's object whole
// instead of flattening it into one field per key. Rows live in the relational store (Prisma);
// ingest reads a dataset's names through the repository layer (microseconds, and never stale
// when several instances share the store).
import { conflict, invalidInput, limitExceeded } from '../../errors';
import type { Repository } from '../../db/repository';
import type { PrismaClient } from '../../db/store';
import { validateFieldName } from '../field-names';

/** Map fields one dataset may declare. */
export const MAX_MAP_FIELDS_PER_DATASET = 100;

/** A map field's name must be one ingest could make: see `validateFieldName`. */
export function validateMapFieldName(name: string): void {
  validateFieldName(name, 'map field', { dotted: true });
}

export class MapFieldRegistry {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly repository: Repository,
  ) {}

  /** The dataset's map field names, read from the store as it is now. */
  async namesOf(datasetId: string): Promise<ReadonlySet<string>> {
    return new Set(await this.repository.mapFields.namesOf(datasetId));
  }

  /** The names, sorted. */
  list(datasetId: string): Promise<string[]> {
    return this.repository.mapFields.namesOf(datasetId);
  }

  /** The names of several datasets at once (dataset listings). */
  listMany(datasetIds: readonly string[]): Promise<Map<string, string[]>> {
    return this.repository.mapFields.namesOfMany(datasetIds);
  }

  /** Declares a map field; a conflict when it exists already. */
  async add(datasetId: string, name: string): Promise<void> {
    validateMapFieldName(name);
    const names = await this.namesOf(datasetId);
    if (names.has(name)) throw conflict(`map field "${name}" already exists`);
    if (names.size >= MAX_MAP_FIELDS_PER_DATASET) throw limitExceeded(`a dataset may have at most ${MAX_MAP_FIELDS_PER_DATASET} map fields`);
    try {
      await this.prisma.datasetMapField.create({ data: { datasetId, name } });
    } catch (error) {
      if ((await this.namesOf(datasetId)).has(name)) throw conflict(`map field "${name}" already exists`);
      throw error;
    }
  }

  /** Declares the map field unless it exists (for ingest paths that need one); never a conflict. */
  async ensure(datasetId: string, name: string): Promise<void> {
    if ((await this.namesOf(datasetId)).has(name)) return;
    try {
      await this.add(datasetId, name);
    } catch (error) {
      if (!(await this.namesOf(datasetId)).has(name)) throw error;
    }
  }

  /** Makes the list exactly `names`: new names are declared, missing ones removed. */
  async replace(datasetId: string, names: string[]): Promise<string[]> {
    for (const name of names) validateMapFieldName(name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) throw invalidInput(`map field "${duplicate}" is listed twice`);
    if (names.length > MAX_MAP_FIELDS_PER_DATASET) throw limitExceeded(`a dataset may have at most ${MAX_MAP_FIELDS_PER_DATASET} map fields`);
    await this.prisma.$transaction([
      this.prisma.datasetMapField.deleteMany({ where: { datasetId, name: { notIn: names } } }),
      ...names.map((name) =>
        this.prisma.datasetMapField.upsert({ where: { datasetId_name: { datasetId, name } }, create: { datasetId, name }, update: {} }),
      ),
    ]);
    return this.list(datasetId);
  }

  /** Removes a map field; false when there was none. */
  async remove(datasetId: string, name: string): Promise<boolean> {
    const { count } = await this.prisma.datasetMapField.deleteMany({ where: { datasetId, name } });
    return count > 0;
  }
}
