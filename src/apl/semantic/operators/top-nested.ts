// Hierarchical and frequency tops, built from summarize, row numbers within partitions and
// joins back to the rows: top-nested, top-hitters (exact counts), sample-distinct.
import type { Assignment, Operator } from '../../syntax/ast';
import { semanticError } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, displayName, findColumn } from '../binder';
import type { Rel, RelColumn, SortKeyPlan, TExpr } from '../plan';
import { call, convert, intLiteral } from '../typed';
import { callExpr, constantCount, fieldName } from './common';

const visibleColumn = (analyzer: Analyzer, stage: Stage, name: string): RelColumn => findColumn(analyzer.visible(stage), name)!;

/** Adds row numbers within `partition` ordered by `order`, as a column named `name`. */
function rowNumbers(analyzer: Analyzer, stage: Stage, name: string, partition: TExpr[], order: SortKeyPlan[]): Stage {
  const column = analyzer.column(name, 'int');
  const rel: Rel = { op: 'window', columns: [...stage.rel.columns, column], input: stage.rel, functions: [{ fn: 'row_number', partition, order }] };
  return { ...stage, rel };
}

/** Joins each row of `rows` to its group's row in `groups` (keys equal, nulls included). */
function joinBack(analyzer: Analyzer, rows: Stage, groups: Stage, keys: string[], added: string[]): Stage {
  const left = analyzer.visible(rows);
  const right = added.map((name) => visibleColumn(analyzer, groups, name));
  const rel: Rel = {
    op: 'join',
    kind: 'inner',
    nullSafe: true,
    columns: [...left.map((c) => ({ ...c })), ...right.map((c) => analyzer.column(c.name, c.type))],
    left: rows.rel,
    right: groups.rel,
    keys: keys.map((key) => ({ left: columnRef(visibleColumn(analyzer, rows, key)), right: columnRef(visibleColumn(analyzer, groups, key)) })),
    sources: [...left.map((c) => ({ side: 'left' as const, id: c.id })), ...right.map((c) => ({ side: 'right' as const, id: c.id }))],
  };
  return { rel, order: [], explicitOrder: false, datasets: rows.datasets };
}

const KEY = (level: number) => `__top_value${level}`;
const PICK = (level: number) => `__top_pick${level}`;

/**
 * top-nested: level by level, the input's rows are grouped by the level's value within the
 * groups kept at the levels before; the top N groups by the aggregation are kept (the rest
 * dropped, or merged into one `with others` group), and each level's aggregation is computed
 * over the rows its group kept. The result has, per level, the value and the aggregation.
 */
export function topNested(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'top-nested' }>): Stage {
  const pos = op.pos;
  const levels = op.levels.map((level, i) => {
    const name = level.of.name ?? displayName(level.of.expr) ?? `Column${i + 1}`;
    return { ...level, name, aggregate: level.by.name ?? `aggregated_${name}` };
  });
  const names = levels.flatMap((level) => [level.name, level.aggregate]);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate) throw semanticError(pos, `top-nested would output the field "${duplicate}" twice; name the levels apart`);

  // The rows, with each level's value as a field of its own.
  let rows = analyzer.extend(
    stage,
    levels.map((level, i) => ({ pos: level.pos, name: KEY(i + 1), expr: level.of.expr })),
  );
  const finals: Stage[] = [];
  const kept: string[] = [];
  levels.forEach((level, index) => {
    const i = index + 1;
    const parents = [...kept];
    let key = KEY(i);
    if (level.count) {
      const count = constantCount(analyzer.binder.bind(level.count, analyzer.scope([])), level.count.pos, 'the count of top-nested');
      const by: Assignment[] = [...parents, key].map((name) => ({ pos, expr: fieldName(name, pos) }));
      let groups = analyzer.summarize(rows, [{ pos, name: '__top_measure', expr: level.by.expr }], by, pos);
      const measure = columnRef(visibleColumn(analyzer, groups, '__top_measure'));
      groups = rowNumbers(
        analyzer,
        groups,
        '__top_rank',
        parents.map((name) => columnRef(visibleColumn(analyzer, groups, name))),
        [
          { expr: measure, desc: level.desc, nullsFirst: false },
          { expr: columnRef(visibleColumn(analyzer, groups, key)), desc: false, nullsFirst: true },
        ],
      );
      const rank = columnRef(groups.rel.columns.at(-1)!);
      const inTop = call('le', [rank, intLiteral(count)], 'bool');
      groups = analyzer.projectStage(groups, [
        ...[...parents, key].map((name) => ({ column: visibleColumn(analyzer, groups, name), expr: columnRef(visibleColumn(analyzer, groups, name)) })),
        { column: analyzer.column(`__top_in${i}`, 'bool'), expr: inTop },
      ]);
      rows = joinBack(analyzer, rows, groups, [...parents, key], [`__top_in${i}`]);
      const flag = columnRef(visibleColumn(analyzer, rows, `__top_in${i}`));
      if (level.others) {
        const value = columnRef(visibleColumn(analyzer, rows, key));
        const others = analyzer.binder.bind(level.others, analyzer.scope([]));
        const type = value.type === others.type || others.type === 'null' ? value.type : 'string';
        const picked = call('iff', [flag, convert(value, type, pos, 'the value'), convert(others, type, level.others.pos, 'the others value')], type);
        rows = analyzer.projectStage(rows, [
          ...analyzer.visible(rows).map((column) => ({ column, expr: columnRef(column) })),
          { column: analyzer.column(PICK(i), type), expr: picked },
        ]);
        key = PICK(i);
      } else {
        rows = { ...rows, rel: { op: 'filter', columns: rows.rel.columns, input: rows.rel, predicate: flag } };
      }
    }
    kept.push(key);
    // This level's aggregation over the rows each kept group holds.
    const by: Assignment[] = kept.map((name, j) => ({ pos, name: levels[j]!.name, expr: fieldName(name, pos) }));
    finals.push(analyzer.summarize(rows, [{ pos, name: level.aggregate, expr: level.by.expr }], by, pos));
  });

  // Each level's rows carry the aggregations of the levels above them.
  let result = finals.at(-1)!;
  for (let i = levels.length - 2; i >= 0; i--) {
    const keys = levels.slice(0, i + 1).map((level) => level.name);
    result = joinBack(analyzer, result, finals[i]!, keys, [levels[i]!.aggregate]);
  }
  const ordered = levels.flatMap((level) => [level.name, level.aggregate]).map((name) => {
    const column = visibleColumn(analyzer, result, name);
    return { column, expr: columnRef(column) };
  });
  result = analyzer.projectStage(result, ordered);
  const keys: SortKeyPlan[] = levels.flatMap((level) => [
    { expr: columnRef(visibleColumn(analyzer, result, level.aggregate)), desc: level.desc, nullsFirst: false },
    { expr: columnRef(visibleColumn(analyzer, result, level.name)), desc: false, nullsFirst: true },
  ]);
  const sorted: Rel = { op: 'sort', columns: result.rel.columns, input: result.rel, keys };
  const groupIds = levels.map((level) => visibleColumn(analyzer, result, level.name).id);
  return { rel: sorted, order: [], explicitOrder: true, aggregation: { groupIds, infos: new Map() }, datasets: stage.datasets };
}

/** top-hitters N of Value [by Sum]: the N values with the highest count (or sum), exactly. */
export function topHitters(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'top-hitters' }>): Stage {
  const count = constantCount(analyzer.binder.bind(op.count, analyzer.scope([])), op.count.pos, 'the count of top-hitters');
  const valueName = op.of.name ?? displayName(op.of.expr) ?? 'Column1';
  const measureName = op.by ? `approximate_sum_${displayName(op.by) ?? valueName}` : `approximate_count_${valueName}`;
  const measure = op.by ? callExpr('sum', [op.by], op.pos) : callExpr('count', [], op.pos);
  const grouped = analyzer.summarize(stage, [{ pos: op.pos, name: measureName, expr: measure }], [{ pos: op.pos, name: valueName, expr: op.of.expr }], op.pos);
  const sorted = analyzer.sort(grouped, [{ pos: op.pos, expr: fieldName(measureName, op.pos), desc: true }]);
  return analyzer.limitStage(sorted, count);
}

/** sample-distinct N of Value: up to N distinct values. */
export function sampleDistinct(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'sample-distinct' }>): Stage {
  const count = constantCount(analyzer.binder.bind(op.count, analyzer.scope([])), op.count.pos, 'the count of sample-distinct');
  const grouped = analyzer.summarize(stage, [], [{ pos: op.pos, expr: op.of }], op.pos);
  return analyzer.limitStage(grouped, count);
}

