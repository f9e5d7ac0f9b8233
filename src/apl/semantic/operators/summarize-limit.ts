// take/limit right after a summarize whose first group is a time bin, as Axiom documents it:
// the N groups (other than the time bin) that rank highest across all time buckets are kept,
// with every bucket of each, so the result may hold more than N rows. Groups rank by the first
// aggregation computed over their whole time range, highest first.
import type { Assignment } from '../../syntax/ast';
import type { Position } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, findColumn } from '../binder';
import type { Rel } from '../plan';
import { fieldName } from './common';

export interface TimeSeriesOrigin {
  input: Stage;
  aggregates: Assignment[];
  by: Assignment[];
  binId: string;
}

/** The summarize behind each time-binned result, while nothing else has touched it. */
export const timeSeriesOrigins = new WeakMap<Rel, TimeSeriesOrigin>();

export function limitTimeSeries(analyzer: Analyzer, stage: Stage, origin: TimeSeriesOrigin, count: number, pos: Position): Stage {
  const groups = analyzer.visible(stage).filter((column) => stage.aggregation?.groupIds.includes(column.id) && column.id !== origin.binId);
  // The first aggregation per group over all buckets, under a name no group uses.
  const measure = '__rank_measure';
  const by: Assignment[] = origin.by.slice(1).map((item, i) => ({ ...item, name: groups[i]!.name }));
  let ranking = analyzer.summarize(origin.input, [{ ...origin.aggregates[0]!, name: measure }], by, pos);
  ranking = analyzer.sort(ranking, [{ pos, expr: fieldName(measure, pos), desc: true, nullsFirst: false }]);
  ranking = analyzer.limitStage(ranking, count);
  const rel: Rel = {
    op: 'join',
    kind: 'leftsemi',
    nullSafe: true,
    columns: stage.rel.columns.map((column) => ({ ...column })),
    left: stage.rel,
    right: ranking.rel,
    keys: groups.map((column) => ({ left: columnRef(column), right: columnRef(findColumn(analyzer.visible(ranking), column.name)!) })),
    sources: stage.rel.columns.map((column) => ({ side: 'left' as const, id: column.id })),
  };
  const bin = stage.rel.columns.find((column) => column.id === origin.binId)!;
  const sorted: Rel = { op: 'sort', columns: rel.columns, input: rel, keys: [{ expr: columnRef(bin), desc: false, nullsFirst: true }] };
  return { ...stage, rel: sorted };
}
