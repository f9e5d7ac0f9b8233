// Metadata functions: column_ifexists, ingestion_time and cursor_current, which read what the
// row carries besides its fields (its ingest time, its place in the dataset).
import { createHash } from 'node:crypto';
import { call, nullOf } from '../typed';
import type { ScalarFamily } from './rule';

const HMAC_BLOCK = 64;

/** The inner and outer keys of HMAC-SHA256 for `key`, as hex: the SQL signs with them. */
function hmacPads(key: string | Buffer): { inner: string; outer: string } {
  let bytes = Buffer.from(key);
  if (bytes.length > HMAC_BLOCK) bytes = createHash('sha256').update(bytes).digest();
  const block = Buffer.alloc(HMAC_BLOCK);
  bytes.copy(block);
  return { inner: Buffer.from(block.map((b) => b ^ 0x36)).toString('hex'), outer: Buffer.from(block.map((b) => b ^ 0x5c)).toString('hex') };
}

export const METADATA_FUNCTIONS: ScalarFamily = {
  column_ifexists: (site) => {
    site.arity(2);
    return site.row.field(site.constString(0)) ?? site.raw(1);
  },
  ingestion_time: (site) => {
    site.arity(0);
    const field = site.row.field('_sysTime');
    return field && field.type === 'datetime' ? field : nullOf('datetime');
  },
  // The cursor of the row's event: sent back as a query's cursor, the query resumes there.
  cursor_current: (site) => {
    site.arity(0);
    const time = site.row.field('_time');
    const rowId = site.row.field('_rowId');
    const key = site.context.cursorKey;
    if (!time || !rowId || time.type !== 'datetime' || rowId.type !== 'int' || key === undefined) return nullOf('string');
    return call('cursor_of', [time, rowId], 'string', { pads: hmacPads(key) });
  },
};
