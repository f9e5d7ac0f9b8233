// Virtual fields: a dataset's fields computed at query time from APL expressions. They are bound
// here, in the semantic layer, over the columns of the dataset's scan, and become columns of a
// projection on top of it, so every operator sees them as fields like the stored ones; no query
// text is rewritten. Each may use the virtual fields defined before it, and one with the name of
// a stored field takes its place.
import type { DatasetSchema, VirtualFieldSource } from '../../fields/schema';
import { DomainError, invalidInput } from '../../errors';
import type { Expr } from '../syntax/ast';
import { parseExpression } from '../syntax/parser';
import { Binder, columnRef } from './binder';
import type { QueryContext } from './call-site';
import { aplTypeOfField } from './field-types';
import type { AplType, RelColumn, TExpr } from './plan';
import { nullOf } from './typed';

/** Parsed expressions by text; parsing is pure, so this is safe to keep across queries. */
const parsed = new Map<string, Expr | DomainError>();
const MAX_PARSED = 2000;

function parse(expression: string): Expr {
  let result = parsed.get(expression);
  if (result === undefined) {
    try {
      result = parseExpression(expression);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      result = error;
    }
    if (parsed.size >= MAX_PARSED) parsed.delete(parsed.keys().next().value!);
    parsed.set(expression, result);
  }
  if (result instanceof DomainError) throw result;
  return result;
}

export interface BoundVirtualFields {
  /**
   * The projection's columns: the scan's (a stored field a virtual field replaces, hidden), the
   * virtual fields, and hidden markers for those that cannot be evaluated.
   */
  columns: RelColumn[];
  exprs: TExpr[];
}

/** A bound virtual field, or why it cannot be evaluated. */
export type VirtualFieldBinding = { name: string; expr: TExpr } | { name: string; error: string };

/** Binds each definition over the columns and the virtual fields before it. */
export function bindEach(columns: readonly RelColumn[], definitions: readonly VirtualFieldSource[], context: QueryContext, binder = new Binder()): VirtualFieldBinding[] {
  const earlier = new Map<string, TExpr>();
  const unavailable: RelColumn[] = [];
  let visible = columns.filter((column) => !column.hidden);
  const bindings: VirtualFieldBinding[] = [];
  for (const definition of definitions) {
    try {
      const expr = binder.bind(parse(definition.expression), { columns: [...visible, ...unavailable], lets: earlier, context });
      earlier.set(definition.name, expr);
      visible = visible.filter((column) => column.name !== definition.name);
      bindings.push({ name: definition.name, expr });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const message = `virtual field "${definition.name}" cannot be evaluated: ${error.message}`;
      if (definition.strict) throw invalidInput(message);
      earlier.delete(definition.name);
      unavailable.push({ id: '', name: definition.name, type: 'null', hidden: true, unavailable: message });
      bindings.push({ name: definition.name, error: message });
    }
  }
  return bindings;
}

/** The projection that adds the dataset's virtual fields to its scan's columns. */
export function bindVirtualFields(
  scanColumns: readonly RelColumn[],
  definitions: readonly VirtualFieldSource[],
  context: QueryContext,
  binder: Binder,
  newColumn: (name: string, type: AplType, extra?: Partial<RelColumn>) => RelColumn,
): BoundVirtualFields {
  // A later definition of the same name (a legacy request's field over the dataset's) wins.
  const bindings = new Map(bindEach(scanColumns, definitions, context, binder).map((binding) => [binding.name, binding]));
  const replaced = new Set([...bindings.values()].filter((binding) => 'expr' in binding).map((binding) => binding.name));
  const columns: RelColumn[] = [];
  const exprs: TExpr[] = [];
  for (const column of scanColumns) {
    columns.push(replaced.has(column.name) && !column.hidden ? { ...column, hidden: true } : column);
    exprs.push(columnRef(column));
  }
  for (const binding of bindings.values()) {
    if ('expr' in binding) {
      columns.push(newColumn(binding.name, binding.expr.type));
      exprs.push(binding.expr);
    } else {
      columns.push(newColumn(binding.name, 'null', { hidden: true, unavailable: binding.error }));
      exprs.push(nullOf('null'));
    }
  }
  return { columns, exprs };
}

/** The type of each of a dataset's virtual fields as queries see it, or why it cannot be evaluated. */
export function describeVirtualFields(schema: DatasetSchema, nowNanos: bigint): { name: string; type?: AplType; error?: string }[] {
  if (!schema.virtualFields?.length) return [];
  const columns: RelColumn[] = schema.fields.map((field, i) => ({ id: `f${i}`, name: field.name, type: aplTypeOfField(field.type), stored: field }));
  // `bin_auto` needs a span even where no query gives a time range; any will do for a type.
  const context: QueryContext = { nowNanos, autoBinSpan: 60_000_000_000n };
  return bindEach(columns, schema.virtualFields, context).map((binding) =>
    'expr' in binding ? { name: binding.name, type: binding.expr.type } : { name: binding.name, error: binding.error },
  );
}
