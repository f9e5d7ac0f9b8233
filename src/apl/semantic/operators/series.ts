// make-series: aggregations per group and per bin of the axis field, turned into one row per
// group whose values are dynamic arrays over consecutive bins (missing bins take the default,
// 0 unless given), followed by the bins themselves as an array named after the axis field.
// `from`/`to` fix the bins for every group (bins start at `from`); without them each series
// spans the bins its rows fall in. `in range(start, stop, step)` bins like bin() and includes stop.
import type { Assignment, Operator } from '../../syntax/ast';
import { type Position, semanticError } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, displayName } from '../binder';
import type { AplType, Rel, RelColumn, SeriesAxis, TExpr } from '../plan';
import { article, call, convert, literal } from '../typed';
import { fieldName } from './common';

const BIN_FIELD = '__series_bin';

type AxisType = SeriesAxis['type'];

/** A constant of the axis type, as a bigint (nanoseconds or long) or a number (real). */
function axisConstant(expr: TExpr, type: AxisType, pos: Position, what: string): bigint | number {
  if (expr.kind === 'literal') {
    const value = expr.value;
    if ((type === 'datetime' && value.type === 'datetime') || (type === 'timespan' && value.type === 'timespan')) return value.nanos;
    if (type === 'int' && value.type === 'int') return value.value;
    if (type === 'real' && (value.type === 'real' || value.type === 'int')) return Number(value.type === 'int' ? value.value : value.value);
  }
  throw semanticError(pos, `${what} of make-series must be a constant ${type === 'int' ? 'long' : type}`);
}

const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

export function makeSeries(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'make-series' }>): Stage {
  const scope = analyzer.scope(stage.rel.columns);
  const constants = analyzer.scope([]);
  const on = analyzer.binder.bind(op.on, scope);
  const axisType: AxisType | undefined = on.type === 'datetime' || on.type === 'timespan' || on.type === 'int' || on.type === 'real' ? on.type : undefined;
  if (!axisType) throw semanticError(op.on.pos, `make-series needs a datetime, timespan or numeric axis, found ${article(on.type)}`);
  const stepType: AplType = axisType === 'datetime' ? 'timespan' : axisType;
  const step = axisConstant(convert(analyzer.binder.bind(op.step, constants), stepType, op.step.pos, 'the step'), stepType as AxisType, op.step.pos, 'the step');
  if (!(step > 0)) throw semanticError(op.step.pos, 'the step of make-series must be positive');
  const bound = (expr: typeof op.from, what: string) =>
    expr === undefined ? undefined : axisConstant(convert(analyzer.binder.bind(expr, scope), axisType, expr.pos, what), axisType, expr.pos, what);
  const from = bound(op.from, 'the start');
  const to = bound(op.to, 'the end');

  // Bin numbers: (value - origin) / step, floored. Bins start at `from` (main syntax) or at
  // multiples of the step (the range syntax, and no `from`).
  const exact = axisType !== 'real';
  const origin: bigint | number = op.legacyRange || from === undefined ? (exact ? 0n : 0) : from;
  const asNumber = (value: bigint | number): TExpr => (exact ? literal({ type: 'int', value: BigInt(value) }) : literal({ type: 'real', value: Number(value) }));
  const numericAxis = exact ? call('cast', [on], 'int') : on;
  const bin = call('bin_index', [numericAxis, asNumber(origin), asNumber(step)], 'int');
  const binOf = (value: bigint | number): bigint =>
    exact ? floorDiv(BigInt(value) - BigInt(origin), BigInt(step)) : BigInt(Math.floor((Number(value) - Number(origin)) / Number(step)));
  // `to` is exclusive in the main syntax; the range syntax includes the bin of its stop.
  const endBin = (value: bigint | number): bigint =>
    op.legacyRange
      ? binOf(value) + 1n
      : exact
        ? floorDiv(BigInt(value) - BigInt(origin) + BigInt(step) - 1n, BigInt(step))
        : BigInt(Math.ceil((Number(value) - Number(origin)) / Number(step)));
  const bounds: SeriesAxis['bounds'] = {
    ...(from !== undefined ? { first: binOf(from) } : {}),
    ...(to !== undefined ? { last: endBin(to) } : {}),
  };
  if (bounds.first !== undefined && bounds.last !== undefined) {
    if (bounds.last - bounds.first > 100_000n) throw semanticError(op.pos, `make-series would make ${bounds.last - bounds.first} bins; use a larger step (at most 100000 bins)`);
    if (bounds.last < bounds.first) bounds.last = bounds.first;
  }

  // Rows outside the range do not count.
  const conditions: TExpr[] = [];
  if (bounds.first !== undefined) conditions.push(call('ge', [bin, literal({ type: 'int', value: bounds.first })], 'bool'));
  if (bounds.last !== undefined) conditions.push(call('lt', [bin, literal({ type: 'int', value: bounds.last })], 'bool'));
  let input: Stage = stage;
  if (conditions.length) {
    const predicate = conditions.reduce((a, b) => call('and', [a, b], 'bool'));
    input = { ...stage, rel: { op: 'filter', columns: stage.rel.columns, input: stage.rel, predicate } };
  }
  const visible = analyzer.visible(input);
  const binColumn = analyzer.column(BIN_FIELD, 'int');
  input = analyzer.projectStage(input, [...visible.map((column) => ({ column, expr: columnRef(column) })), { column: binColumn, expr: bin }]);

  const by: Assignment[] = [...op.by, { pos: op.pos, name: BIN_FIELD, expr: fieldName(BIN_FIELD, op.pos) }];
  const summarized = analyzer.summarize(
    input,
    op.aggregates.map((a) => a.item),
    by,
    op.pos,
  );
  const groupIds = summarized.aggregation!.groupIds;
  const columns = summarized.rel.columns.filter((column) => !column.hidden);
  const binId = columns.find((column) => groupIds.includes(column.id) && column.name === BIN_FIELD)!.id;
  const groups = columns.filter((column) => groupIds.includes(column.id) && column.id !== binId);
  const values = columns.filter((column) => !groupIds.includes(column.id));
  if (values.length < op.aggregates.length) throw semanticError(op.pos, 'make-series needs one aggregation per series');

  const defaults = values.map((column, i) => {
    if (!['int', 'real', 'timespan', 'bool'].includes(column.type)) {
      throw semanticError(op.pos, `make-series needs aggregations with numeric results; ${column.name} is ${article(column.type)}`);
    }
    // Aggregations returning several fields (percentiles) share their call's default.
    const given = op.aggregates[Math.min(i, op.aggregates.length - 1)]!.default;
    const value = given ? analyzer.binder.bind(given, constants) : literal({ type: 'int', value: 0n });
    return { id: column.id, default: convert(value, column.type, given?.pos ?? op.pos, 'the default of make-series') };
  });

  const axisName = displayName(op.on) ?? 'Column1';
  const outputs: RelColumn[] = [
    ...groups.map((column) => analyzer.column(column.name, column.type)),
    ...values.map((column) => analyzer.column(column.name, 'dynamic')),
    analyzer.column(axisName, 'dynamic'),
  ];
  analyzer.checkUnique(outputs, op.pos);
  const axis: SeriesAxis = { type: axisType, origin, step, nonEmpty: op.nonEmpty, bounds };
  const rel: Rel = {
    op: 'series',
    columns: outputs,
    input: summarized.rel,
    groups: groups.map((column) => column.id),
    bin: binId,
    values: defaults,
    axis,
  };
  const infos = new Map([...(summarized.aggregation?.infos ?? [])].flatMap(([id, info]) => {
    const at = values.findIndex((column) => column.id === id);
    return at >= 0 ? [[outputs[groups.length + at]!.id, info] as const] : [];
  }));
  return {
    rel,
    order: [],
    explicitOrder: false,
    aggregation: { groupIds: outputs.slice(0, groups.length).map((column) => column.id), infos },
    datasets: stage.datasets,
  };
}
