// The annotations a query answer carries: those of the organization overlapping the query's time
// window, read on every APL query, so through the repository rather than Prisma. The statement
// text is fixed (open bounds become the ends of the calendar) and the caller keeps the ones on
// its datasets.
import { readOptionalTime, readTime, type SqlExecutor } from '../sql';

export interface AnnotationRow {
  id: string;
  type: string;
  title: string | null;
  description: string | null;
  url: string | null;
  time: Date;
  endTime: Date | null;
  datasets: string[];
}

interface StoredAnnotation {
  id: string;
  type: string;
  title: string | null;
  description: string | null;
  url: string | null;
  time: unknown;
  end_time: unknown;
  dataset: string;
}

const EARLIEST = new Date('0001-01-01T00:00:00.000Z');
const LATEST = new Date('9999-12-31T23:59:59.999Z');

export class AnnotationRows {
  constructor(private readonly sql: SqlExecutor) {}

  /** Annotations whose time (or span up to endTime) meets [start, end], newest first, with their datasets. */
  async overlapping(orgId: string, start: Date | undefined, end: Date | undefined): Promise<AnnotationRow[]> {
    const rows = await this.sql.rows<StoredAnnotation>(
      `SELECT a.id, a.type, a.title, a.description, a.url, a.time, a.end_time, d.dataset
         FROM annotations a JOIN annotation_datasets d ON d.annotation_id = a.id
        WHERE a.org_id = ? AND a.time <= ? AND COALESCE(a.end_time, a.time) >= ?
        ORDER BY a.time DESC, a.id, d.dataset`,
      [orgId, end ?? LATEST, start ?? EARLIEST],
    );
    const byId = new Map<string, AnnotationRow>();
    for (const row of rows) {
      let annotation = byId.get(row.id);
      if (!annotation) {
        annotation = {
          id: row.id,
          type: row.type,
          title: row.title,
          description: row.description,
          url: row.url,
          time: readTime(row.time),
          endTime: readOptionalTime(row.end_time),
          datasets: [],
        };
        byId.set(row.id, annotation);
      }
      annotation.datasets.push(row.dataset);
    }
    return [...byId.values()];
  }
}
