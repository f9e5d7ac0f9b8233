// The map fields of each dataset: the names under which ingest keeps an event's object whole
// instead of flattening it into one field per key. Rows live in the relational store (Prisma);
// each dataset's names are read once and then served from memory, so ingest asks no database,
// and every change made here reloads that copy.
import { conflict, invalidInput, limitExceeded } from '../../errors';
import type { PrismaClient } from '../../db/sqlite';
import { MAX_FIELD_NAME_BYTES } from '../ingest/limits';

/** Map fields one dataset may declare. */
export const MAX_MAP_FIELDS_PER_DATASET = 100;

/**
 * Refuses names no event could ever hold: empty, over the field name limit, with a NUL, an
 * empty dot-separated part (ingest never makes one), or starting with "_" (system fields).
 */
export function validateMapFieldName(name: string): void {
  const problem =
    name === ''
      ? 'must not be empty'
      : Buffer.byteLength(name) > MAX_FIELD_NAME_BYTES
        ? `must be at most ${MAX_FIELD_NAME_BYTES} bytes`
        : name.includes('\u0000')
          ? 'must not contain a NUL character'
          : name.startsWith('_')
            ? 'must not start with "_", which marks system fields'
            : name.split('.').includes('')
              ? 'must not have an empty part between dots'
              : undefined;
  if (problem) throw invalidInput(`invalid map field name "${name.slice(0, 64)}": it ${problem}`);
}

export class MapFieldRegistry {
  private readonly cache = new Map<string, Promise<ReadonlySet<string>>>();

  constructor(private readonly prisma: PrismaClient) {}

  /** The dataset's map field names, from memory after the first read. */
  namesOf(datasetId: string): Promise<ReadonlySet<string>> {
    let names = this.cache.get(datasetId);
    if (!names) {
      names = this.load(datasetId);
      this.cache.set(datasetId, names);
      names.catch(() => this.cache.delete(datasetId));
    }
    return names;
  }

  /** The names, sorted. */
  async list(datasetId: string): Promise<string[]> {
    return [...(await this.namesOf(datasetId))].sort();
  }

  /** The names of several datasets at once (dataset listings), from memory when known. */
  async listMany(datasetIds: readonly string[]): Promise<Map<string, string[]>> {
    const missing = datasetIds.filter((id) => !this.cache.has(id));
    if (missing.length > 1) {
      const rows = await this.prisma.datasetMapField.findMany({ where: { datasetId: { in: missing } }, select: { datasetId: true, name: true } });
      for (const id of missing) {
        if (!this.cache.has(id)) this.cache.set(id, Promise.resolve(new Set(rows.filter((row) => row.datasetId === id).map((row) => row.name))));
      }
    }
    const entries = await Promise.all(datasetIds.map(async (id) => [id, await this.list(id)] as const));
    return new Map(entries);
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
      this.reload(datasetId);
      if ((await this.namesOf(datasetId)).has(name)) throw conflict(`map field "${name}" already exists`);
      throw error;
    }
    this.reload(datasetId);
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
    this.reload(datasetId);
    return this.list(datasetId);
  }

  /** Removes a map field; false when there was none. */
  async remove(datasetId: string, name: string): Promise<boolean> {
    const { count } = await this.prisma.datasetMapField.deleteMany({ where: { datasetId, name } });
    this.reload(datasetId);
    return count > 0;
  }

  /** Forgets a deleted dataset's names. */
  forget(datasetId: string): void {
    this.cache.delete(datasetId);
  }

  private reload(datasetId: string): void {
    this.cache.delete(datasetId);
  }

  private async load(datasetId: string): Promise<ReadonlySet<string>> {
    const rows = await this.prisma.datasetMapField.findMany({ where: { datasetId }, select: { name: true } });
    return new Set(rows.map((row) => row.name));
  }
}
