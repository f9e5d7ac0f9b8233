// The typed plan the analyzer builds and a dialect turns into SQL: relational operators over
// columns with unique ids, and expressions whose every operator is a call with a canonical
// name and an inferred type. Nothing here knows SQL.
import type { DatasetSchema, StoredField } from '../../fields/schema';
import type { JoinKind, LiteralValue } from '../syntax/ast';

/** APL's scalar types; `null` is the type of an untyped null literal, which fits anywhere. */
export type AplType = 'bool' | 'int' | 'real' | 'string' | 'datetime' | 'timespan' | 'dynamic' | 'null';

export type TExpr =
  | { kind: 'column'; id: string; type: AplType }
  | { kind: 'literal'; value: LiteralValue; type: AplType }
  /**
   * An operator or function. `fn` is a canonical name shared by the function catalog and the
   * dialects (e.g. `eq`, `contains`, `strlen`, `cast`); `options` carries compile-time constants
   * such as the target type of a cast or a regex built from a parse pattern.
   */
  | { kind: 'call'; fn: string; args: TExpr[]; type: AplType; options?: CallOptions };

export interface CallOptions {
  [key: string]: unknown;
}

export interface AggregateCall {
  fn: string;
  args: TExpr[];
  type: AplType;
  options?: CallOptions;
  /** Only rows where this holds take part (the `*if` forms: `sumif(x, c)` is `sum(x)` over rows where c). */
  filter?: TExpr;
}

export interface RelColumn {
  /** Unique in the whole plan; dialects use it as the SQL alias. */
  id: string;
  /** The name users see. */
  name: string;
  type: AplType;
  /** Carried along for cursors and ordering but not returned (`_time`/`_rowId` identity). */
  hidden?: boolean;
  /** Addressable by name but left out of results and listings unless asked for (`_rowId`). */
  implicit?: boolean;
  /** The dataset field this column reads unchanged, if any (field metadata, `array` types). */
  stored?: StoredField;
  /** A name that cannot be used, and why (a virtual field whose expression does not bind). */
  unavailable?: string;
}

export interface SortKeyPlan {
  expr: TExpr;
  desc: boolean;
  nullsFirst: boolean;
}

/** Where a page starts in (_time, _rowId) order. */
export interface CursorBound {
  timeNanos: bigint;
  rowId: bigint;
  /** desc pages continue with older rows, asc pages with newer ones. */
  direction: 'asc' | 'desc';
  inclusive: boolean;
}

export type Rel =
  | {
      op: 'scan';
      columns: RelColumn[];
      dataset: DatasetSchema;
      /** Stored column of each plan column id. */
      sourceColumns: Map<string, string>;
      timeColumnId: string;
      rowIdColumnId: string;
      range?: { startNanos?: bigint; endNanos?: bigint };
      cursor?: CursorBound;
    }
  /** `exprs` of each input line up with `columns` (over that input's columns; null literal when absent). */
  | { op: 'union'; columns: RelColumn[]; inputs: { rel: Rel; exprs: TExpr[] }[] }
  | { op: 'filter'; columns: RelColumn[]; input: Rel; predicate: TExpr }
  | { op: 'project'; columns: RelColumn[]; input: Rel; exprs: TExpr[] }
  | { op: 'aggregate'; columns: RelColumn[]; input: Rel; groups: TExpr[]; aggregates: AggregateCall[] }
  | { op: 'sort'; columns: RelColumn[]; input: Rel; keys: SortKeyPlan[] }
  | { op: 'limit'; columns: RelColumn[]; input: Rel; count: number }
  | { op: 'sample'; columns: RelColumn[]; input: Rel; fraction?: number; rows?: number }
  | {
      op: 'join';
      columns: RelColumn[];
      kind: JoinKind;
      left: Rel;
      right: Rel;
      keys: { left: TExpr; right: TExpr }[];
      /** Keys match when both are null too (grouping keys joined back to their rows). */
      nullSafe?: boolean;
      /** For each output column: which side and which input column id it comes from. */
      sources: { side: 'left' | 'right'; id: string }[];
    }
  /** Literal rows: each row's expressions line up with `columns` and are constant. */
  | { op: 'values'; columns: RelColumn[]; rows: TExpr[][] }
  /** The input's columns, then one column per window function (row numbers within partitions). */
  | { op: 'window'; columns: RelColumn[]; input: Rel; functions: WindowCall[] }
  /**
   * One row per element of the expanded dynamic values, all expanded in parallel (the shorter
   * padded with nulls): null gives one row, an empty array or bag none. Each output column is an
   * expression over the input row, an element of an expansion, or the element's position.
   */
  | {
      op: 'expand';
      columns: RelColumn[];
      input: Rel;
      outputs: ExpandOutput[];
      expansions: { expr: TExpr; bagExpansion: 'bag' | 'array' }[];
      limit?: number;
    }
  /**
   * Per group, each value column as an array over consecutive bins (`default` where a bin has no
   * row), then the bins' axis values as an array. The input holds one row per group and bin
   * number; bin `i` stands for `origin + i * step`.
   */
  | {
      op: 'series';
      columns: RelColumn[];
      input: Rel;
      groups: string[];
      bin: string;
      values: { id: string; default: TExpr }[];
      axis: SeriesAxis;
    };

export interface WindowCall {
  fn: 'row_number';
  partition: TExpr[];
  order: SortKeyPlan[];
}

export type ExpandOutput = { kind: 'input'; expr: TExpr } | { kind: 'element'; expansion: number } | { kind: 'position' };

export interface SeriesAxis {
  type: 'datetime' | 'timespan' | 'int' | 'real';
  /** Nanoseconds for datetime and timespan axes. */
  origin: bigint | number;
  step: bigint | number;
  /** Fixed bin numbers [first, last) where the range gives them; otherwise each series spans its own bins. */
  bounds?: { first?: bigint; last?: bigint };
  /** Without groups, an empty input still gives one row of defaults (`kind=nonempty`). */
  nonEmpty: boolean;
}

export const typeName = (type: AplType): string => (type === 'int' ? 'long' : type);

/** Positions of a node's columns that are required, at least one (a SELECT needs a column). */
export function keptPositions(node: Rel, required: Set<string> | undefined): number[] {
  const positions = node.columns.map((_, i) => i);
  if (!required) return positions;
  const kept = positions.filter((i) => required.has(node.columns[i]!.id));
  return kept.length > 0 ? kept : [0];
}

/**
 * For each plan node, the ids of its output columns that something above it reads (the root
 * must produce `outputs`). A scan or projection may leave out every other column, so a query
 * over a wide dataset reads only the fields it uses. Nodes whose SQL keeps all their columns
 * (aggregate, union, join) require everything their expressions read.
 */
export function requiredColumns(root: Rel, outputs: readonly RelColumn[]): Map<Rel, Set<string>> {
  const required = new Map<Rel, Set<string>>();
  const readsOf = (exprs: TExpr[], into = new Set<string>()): Set<string> => {
    const visit = (expr: TExpr): void => {
      if (expr.kind === 'column') into.add(expr.id);
      else if (expr.kind === 'call') expr.args.forEach(visit);
    };
    exprs.forEach(visit);
    return into;
  };
  const all = (node: Rel) => new Set(node.columns.map((column) => column.id));

  const visit = (node: Rel, needed: Set<string>): void => {
    // A node reached twice (a `let` used in two places) serves both parents.
    const known = required.get(node);
    if (known && [...needed].every((id) => known.has(id))) return;
    const merged = new Set([...(known ?? []), ...needed]);
    required.set(node, merged);
    switch (node.op) {
      case 'scan':
      case 'values':
        return;
      case 'filter':
        return visit(node.input, readsOf([node.predicate], new Set(merged)));
      case 'sort':
        return visit(node.input, readsOf(node.keys.map((key) => key.expr), new Set(merged)));
      case 'limit':
      case 'sample':
        return visit(node.input, merged);
      case 'project': {
        const kept = node.exprs.filter((_, i) => merged.has(node.columns[i]!.id));
        // At least one column must remain for the SQL to be valid.
        return visit(node.input, readsOf(kept.length > 0 ? kept : node.exprs.slice(0, 1)));
      }
      case 'aggregate':
        required.set(node, all(node));
        return visit(node.input, readsOf([...node.groups, ...node.aggregates.flatMap((aggregate) => (aggregate.filter ? [...aggregate.args, aggregate.filter] : aggregate.args))]));
      case 'union': {
        const kept = keptPositions(node, merged);
        required.set(node, new Set(kept.map((i) => node.columns[i]!.id)));
        for (const input of node.inputs) visit(input.rel, readsOf(kept.map((i) => input.exprs[i]!)));
        return;
      }
      case 'join': {
        const kept = keptPositions(node, merged);
        required.set(node, new Set(kept.map((i) => node.columns[i]!.id)));
        const sides = { left: new Set<string>(), right: new Set<string>() };
        for (const i of kept) sides[node.sources[i]!.side].add(node.sources[i]!.id);
        readsOf(node.keys.map((key) => key.left), sides.left);
        readsOf(node.keys.map((key) => key.right), sides.right);
        visit(node.left, sides.left);
        return visit(node.right, sides.right);
      }
      case 'window': {
        const reads = readsOf(node.functions.flatMap((fn) => [...fn.partition, ...fn.order.map((key) => key.expr)]));
        const inputIds = new Set(node.input.columns.map((column) => column.id));
        for (const id of merged) if (inputIds.has(id)) reads.add(id);
        return visit(node.input, reads);
      }
      case 'expand': {
        const kept = node.outputs.filter((output, i) => output.kind === 'input' && merged.has(node.columns[i]!.id)) as { kind: 'input'; expr: TExpr }[];
        return visit(node.input, readsOf([...kept.map((output) => output.expr), ...node.expansions.map((expansion) => expansion.expr)]));
      }
      case 'series':
        required.set(node, all(node));
        return visit(node.input, new Set([...node.groups, node.bin, ...node.values.map((value) => value.id)]));
    }
  };
  visit(root, new Set(outputs.map((column) => column.id)));
  return required;
}
