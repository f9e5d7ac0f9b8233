// The repository layer: the relational reads and writes that run on every request or in
// background loops, where Prisma's ~1 ms per query is too much. Each area is a small class over
// a SqlExecutor (src/db/sql.ts) whose statements are written once in portable SQL, so the same
// code runs on SQLite (prepared statements, microseconds) and PostgreSQL (a pooled connection,
// one round trip). Every read sees the store as it is now, which is what keeps several server
// instances in agreement: PostgreSQL is read every time, and the SQLite executor answers a
// repeated read from memory only while the database is provably unchanged (see
// sqlite-executor.ts). Management CRUD goes through Prisma instead.
//
// To add a hot path: add a method to the area it belongs to (or a new area file here, listed
// below), in SQL that follows the rules at the top of src/db/sql.ts, and test it on both
// providers (test/relational/db/repository.test.ts).
import type { SqlDialect, SqlExecutor } from '../sql';
import { AccessRows } from './access';
import { AnnotationRows } from './annotations';
import { CatalogRows } from './catalog';
import { DatasetRows } from './datasets';
import { FieldRows } from './fields';
import { LeaseRows } from './leases';
import { MapFieldRows } from './map-fields';
import { SessionRows } from './sessions';
import { SettingRows } from './settings';
import { TokenRows } from './tokens';
import { ViewRows } from './views';
import { VirtualFieldRows } from './virtual-fields';

export type { RoleGrant } from './access';
export type { AnnotationRow } from './annotations';
export type { DatasetRow, RetainedDataset } from './datasets';
export type { FieldDescription, FieldRow } from './fields';
export type { LeaseState } from './leases';
export type { SessionRow } from './sessions';
export type { MembershipRow, TokenRow } from './tokens';
export type { ViewRow } from './views';
export type { VirtualFieldRow } from './virtual-fields';

export class Repository {
  readonly dialect: SqlDialect;
  readonly tokens: TokenRows;
  readonly sessions: SessionRows;
  readonly access: AccessRows;
  readonly annotations: AnnotationRows;
  readonly datasets: DatasetRows;
  readonly fields: FieldRows;
  readonly settings: SettingRows;
  readonly catalog: CatalogRows;
  readonly leases: LeaseRows;
  readonly mapFields: MapFieldRows;
  readonly virtualFields: VirtualFieldRows;
  readonly views: ViewRows;

  constructor(sql: SqlExecutor) {
    this.dialect = sql.dialect;
    this.tokens = new TokenRows(sql);
    this.sessions = new SessionRows(sql);
    this.access = new AccessRows(sql);
    this.annotations = new AnnotationRows(sql);
    this.datasets = new DatasetRows(sql);
    this.fields = new FieldRows(sql);
    this.settings = new SettingRows(sql);
    this.catalog = new CatalogRows(sql);
    this.leases = new LeaseRows(sql);
    this.mapFields = new MapFieldRows(sql);
    this.virtualFields = new VirtualFieldRows(sql);
    this.views = new ViewRows(sql);
  }
}
