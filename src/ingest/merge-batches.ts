// Several prepared batches of one dataset as one, so that requests waiting for the same dataset
// are committed in one transaction (a commit costs DuckDB a write of its log, whatever the rows:
// with 1,000-event requests the commits were most of the time), and the outcome of that write
// told back to each request as if it had been written alone.
import { widenFieldType } from '../fields/types';
import type { WriteOutcome } from './dataset-events';
import type { BatchField, PreparedBatch } from './prepare';

/** Where each batch's rows start in the merged batch. */
export interface MergedBatches {
  batch: PreparedBatch;
  offsets: number[];
}

export function mergeBatches(batches: readonly PreparedBatch[]): MergedBatches {
  const offsets: number[] = [];
  let rowCount = 0;
  for (const batch of batches) {
    offsets.push(rowCount);
    rowCount += batch.rowCount;
  }
  const fields: BatchField[] = [];
  const byName = new Map<string, BatchField>();
  batches.forEach((batch, index) => {
    const offset = offsets[index]!;
    for (const field of batch.fields) {
      let merged = byName.get(field.name);
      if (!merged) {
        merged = { name: field.name, type: field.type, values: [], present: false, firstRow: -1, lastRow: -1 };
        byName.set(field.name, merged);
        fields.push(merged);
      }
      if (field.present) {
        merged.type = merged.present ? widenFieldType(merged.type, field.type) : field.type;
        merged.present = true;
      }
      if (field.firstRow < 0) continue;
      for (let row = field.firstRow; row <= field.lastRow; row++) {
        const value = field.values[row];
        if (value !== undefined) merged.values[offset + row] = value;
      }
      if (merged.firstRow < 0) merged.firstRow = offset + field.firstRow;
      merged.lastRow = offset + field.lastRow;
    }
  });
  return {
    batch: {
      rowCount,
      times: batches.flatMap((batch) => batch.times),
      positions: batches.flatMap((batch) => batch.positions),
      fields,
      failures: [],
    },
    offsets,
  };
}

/**
 * The part of a merged write that belongs to each batch: its rows stored (their ids follow
 * the merged rows' order, rejected rows taking none), and its rejected rows by its own numbering.
 */
export function splitOutcome(outcome: WriteOutcome, merged: MergedBatches, batches: readonly PreparedBatch[]): WriteOutcome[] {
  let nextId = outcome.firstRowId;
  return batches.map((batch, index) => {
    const offset = merged.offsets[index]!;
    const rejected = new Map<number, string>();
    for (const [row, reason] of outcome.rejected) {
      if (row >= offset && row < offset + batch.rowCount) rejected.set(row - offset, reason);
    }
    const ingested = outcome.ingested > 0 ? batch.rowCount - rejected.size : 0;
    const firstRowId = ingested > 0 ? nextId : 0n;
    const lastRowId = ingested > 0 ? nextId + BigInt(ingested - 1) : 0n;
    nextId += BigInt(ingested);
    // The store's blocks, shared out by rows (whatever a block is to that store).
    const chunks = outcome.ingested > 0 ? Math.ceil((outcome.chunks * ingested) / outcome.ingested) : 0;
    return { ingested, firstRowId, lastRowId, rejected, chunks };
  });
}
