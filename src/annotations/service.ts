// Annotations (v2 `/annotations`): marks on the charts of some datasets at a time, or over a
// span up to `endTime` (deployments, incidents, feature flags). They need the `annotations`
// organization capability. A list can be narrowed to datasets and to a time range; an annotation
// is in a range when it meets it (its time, or any part of its span, lies between `start` and
// `end`, both inclusive). APL answers carry the annotations of their datasets and time window.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hasOrgCapability, type Principal, requireOrgCapability } from '../auth/principal';
import type { AnnotationRow, Repository } from '../db/repository';
import type { PrismaClient } from '../db/store';
import { invalidInput, notFound } from '../errors';
import { DATASET_NAME, DATASET_NAME_RULE } from '../datasets/datasets';
import { parseInput } from '../lib/validation';

export interface AnnotationView {
  id: string;
  type: string;
  datasets: string[];
  title?: string;
  description?: string;
  url?: string;
  time: string;
  endTime?: string;
}

export interface AnnotationFilter {
  datasets?: string[];
  start?: string;
  end?: string;
}

/** At most this many annotations ride along with a query answer (the newest in its window). */
export const MAX_ANNOTATIONS_PER_ANSWER = 1000;

const dateTime = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((text) => new Date(text));
const datasetNames = z
  .array(z.string().regex(DATASET_NAME, DATASET_NAME_RULE))
  .max(1000)
  .transform((names) => [...new Set(names)]);
const type = z.string().max(256).regex(/^[a-z0-9-]+$/, 'must be lowercase letters, digits and "-" (e.g. "production-deployment")');
const text = (max: number) => z.string().max(max);

const createSchema = z.object({
  datasets: datasetNames.refine((names) => names.length > 0, 'must name at least one dataset'),
  type,
  title: text(256).optional(),
  description: text(512).optional(),
  url: text(512).optional(),
  time: dateTime.optional(),
  endTime: dateTime.nullable().optional(),
});

const updateSchema = z.object({
  datasets: datasetNames.refine((names) => names.length > 0, 'must name at least one dataset').optional(),
  type: type.optional(),
  title: text(256).nullable().optional(),
  description: text(512).nullable().optional(),
  url: text(512).nullable().optional(),
  time: dateTime.optional(),
  endTime: dateTime.nullable().optional(),
});

const filterSchema = z.object({
  datasets: datasetNames.optional(),
  start: dateTime.optional(),
  end: dateTime.optional(),
});

const withDatasets = { datasets: { orderBy: { dataset: 'asc' } } } as const;

interface StoredAnnotation {
  id: string;
  type: string;
  title: string | null;
  description: string | null;
  url: string | null;
  time: Date;
  endTime: Date | null;
  datasets: { dataset: string }[] | string[];
}

function viewOf(row: StoredAnnotation): AnnotationView {
  return {
    id: row.id,
    type: row.type,
    datasets: row.datasets.map((d) => (typeof d === 'string' ? d : d.dataset)).sort(),
    ...(row.title !== null ? { title: row.title } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.url !== null ? { url: row.url } : {}),
    time: row.time.toISOString(),
    ...(row.endTime !== null ? { endTime: row.endTime.toISOString() } : {}),
  };
}

function requireOrder(time: Date, endTime: Date | null | undefined) {
  if (endTime && endTime.getTime() < time.getTime()) throw invalidInput('endTime must not be before time');
}

export class AnnotationService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly repository: Repository,
  ) {}

  async list(principal: Principal, filter: AnnotationFilter = {}): Promise<AnnotationView[]> {
    requireOrgCapability(principal, 'annotations', 'read');
    const input = parseInput(filterSchema, filter, 'query parameters');
    if (input.start && input.end && input.start > input.end) throw invalidInput('start must not be after end');
    const rows = await this.prisma.annotation.findMany({
      where: {
        orgId: principal.orgId,
        ...(input.datasets ? { datasets: { some: { dataset: { in: input.datasets } } } } : {}),
        ...(input.end ? { time: { lte: input.end } } : {}),
        ...(input.start ? { OR: [{ endTime: { gte: input.start } }, { endTime: null, time: { gte: input.start } }] } : {}),
      },
      include: withDatasets,
      orderBy: [{ time: 'asc' }, { id: 'asc' }],
    });
    return rows.map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<AnnotationView> {
    requireOrgCapability(principal, 'annotations', 'read');
    return viewOf(await this.find(principal.orgId, id));
  }

  async create(principal: Principal, body: unknown, now = new Date()): Promise<AnnotationView> {
    requireOrgCapability(principal, 'annotations', 'create');
    const input = parseInput(createSchema, body);
    const time = input.time ?? now;
    requireOrder(time, input.endTime);
    const row = await this.prisma.annotation.create({
      data: {
        id: `ann_${randomBytes(12).toString('hex')}`,
        orgId: principal.orgId,
        type: input.type,
        title: input.title ?? null,
        description: input.description ?? null,
        url: input.url ?? null,
        time,
        endTime: input.endTime ?? null,
        createdBy: principal.userId ?? principal.tokenId,
        datasets: { create: input.datasets.map((dataset) => ({ dataset })) },
      },
      include: withDatasets,
    });
    return viewOf(row);
  }

  /** Changes the fields the body names; `null` clears title, description, url or endTime. */
  async update(principal: Principal, id: string, body: unknown): Promise<AnnotationView> {
    requireOrgCapability(principal, 'annotations', 'update');
    const existing = await this.find(principal.orgId, id);
    const input = parseInput(updateSchema, body);
    requireOrder(input.time ?? existing.time, input.endTime === undefined ? existing.endTime : input.endTime);
    const row = await this.prisma.$transaction(async (tx) => {
      if (input.datasets) {
        await tx.annotationDataset.deleteMany({ where: { annotationId: id } });
        await tx.annotationDataset.createMany({ data: input.datasets.map((dataset) => ({ annotationId: id, dataset })) });
      }
      return tx.annotation.update({
        where: { id },
        data: {
          ...(input.type !== undefined ? { type: input.type } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.time !== undefined ? { time: input.time } : {}),
          ...(input.endTime !== undefined ? { endTime: input.endTime } : {}),
        },
        include: withDatasets,
      });
    });
    return viewOf(row);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'annotations', 'delete');
    await this.find(principal.orgId, id);
    await this.prisma.annotation.delete({ where: { id } });
  }

  /**
   * The annotations a query answer carries: those on any of its datasets that meet its time
   * window, oldest first, when the caller may read annotations (undefined otherwise).
   */
  async forAnswer(principal: Principal, datasets: readonly string[], window: { start?: Date; end?: Date }): Promise<AnnotationView[] | undefined> {
    if (!hasOrgCapability(principal, 'annotations', 'read') || datasets.length === 0) return undefined;
    const wanted = new Set(datasets);
    const rows = await this.repository.annotations.overlapping(principal.orgId, window.start, window.end);
    const matching: AnnotationRow[] = [];
    for (const row of rows) {
      if (!row.datasets.some((dataset) => wanted.has(dataset))) continue;
      matching.push(row);
      if (matching.length === MAX_ANNOTATIONS_PER_ANSWER) break;
    }
    return matching.reverse().map(viewOf);
  }

  private async find(orgId: string, id: string) {
    const row = await this.prisma.annotation.findFirst({ where: { id, orgId }, include: withDatasets });
    if (!row) throw notFound(`annotation "${id}" not found`);
    return row;
  }
}
