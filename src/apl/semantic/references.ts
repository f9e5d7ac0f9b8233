// The datasets a parsed query reads, found before analysis so they can be resolved (and access
// checked) up front: plain names, wildcard patterns (`github*`, `*`), names that may be missing
// (legs of `union isfuzzy=true`), and whether the query reads every dataset (`search` or
// `find` without `in`).
import type { Expr, FunctionBody, LetStatement, Query, Source, Tabular } from '../syntax/ast';

export interface DatasetReferences {
  names: string[];
  patterns: string[];
  /** Names read only where a missing dataset is skipped rather than an error. */
  optional: string[];
  /** `search`/`find` without `in (...)`: every dataset the caller may query. */
  all: boolean;
}

export function datasetReferencesOf(query: Query): DatasetReferences {
  const bound = new Set<string>();
  const required = new Set<string>();
  const optional = new Set<string>();
  const patterns = new Set<string>();
  let all = false;

  // Names bound by let statements, function parameters and scalar aliases are not datasets.
  const aliases = new Map<string, string>();
  const collectBound = (lets: LetStatement[]) => {
    for (const statement of lets) {
      bound.add(statement.name);
      if (statement.value.kind === 'scalar' && statement.value.expr.kind === 'name') aliases.set(statement.name, statement.value.expr.name);
      if (statement.value.kind === 'function') {
        for (const parameter of statement.value.parameters) bound.add(parameter.name);
        collectBound(statement.value.body.lets);
      }
    }
  };
  collectBound(query.lets);

  const named = (name: string, fuzzy: boolean) => {
    // `let a = b; let b = dataset;`: follow aliases to the dataset they stand for.
    let target = name;
    for (let hops = 0; bound.has(target); hops++) {
      const next = aliases.get(target);
      if (next === undefined || hops > 64) return;
      target = next;
    }
    (fuzzy ? optional : required).add(target);
  };
  const visitTabular = (tabular: Tabular, fuzzy = false): void => {
    visitSource(tabular.source, fuzzy);
    for (const op of tabular.operators) {
      if (op.kind === 'join' || op.kind === 'lookup') visitTabular(op.right);
      if (op.kind === 'union') op.tables.forEach((table) => visitTabular(table, op.options?.isFuzzy === true));
      visitSubqueries(op);
    }
  };
  // `x in (T | ...)` and `x in (Name)` inside any expression of an operator.
  const visitSubqueries = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visitSubqueries);
    const record = node as Record<string, unknown>;
    if (record.kind === 'in') {
      const expr = record as unknown as Extract<Expr, { kind: 'in' }>;
      if (expr.subquery) visitTabular(expr.subquery);
      const single = expr.items.length === 1 ? expr.items[0] : undefined;
      if (single?.kind === 'name' && !single.bracketed) named(single.name, true);
    }
    for (const [key, value] of Object.entries(record)) if (key !== 'right' && key !== 'tables' && key !== 'subquery') visitSubqueries(value);
  };
  const visitSource = (source: Source, fuzzy: boolean): void => {
    switch (source.kind) {
      case 'named':
        if (source.wildcard) patterns.add(source.name);
        else named(source.name, fuzzy);
        return;
      case 'union':
        source.tables.forEach((table) => visitTabular(table, source.options?.isFuzzy === true));
        return;
      case 'subquery':
        visitTabular(source.tabular, fuzzy);
        return;
      case 'search':
      case 'find':
        if (source.tables) source.tables.forEach((table) => visitTabular(table));
        else all = true;
        return;
      case 'call':
        for (const arg of source.args) if (arg.value.kind === 'name') named(arg.value.name, true);
        return;
      default:
        return;
    }
  };
  const visitBody = (body: FunctionBody) => {
    visitLets(body.lets);
    if (body.value.kind === 'tabular') visitTabular(body.value.tabular);
  };
  const visitLets = (lets: LetStatement[]) => {
    for (const statement of lets) {
      if (statement.value.kind === 'tabular') visitTabular(statement.value.tabular);
      if (statement.value.kind === 'function') visitBody(statement.value.body);
    }
  };
  visitLets(query.lets);
  visitTabular(query.body);
  for (const name of required) optional.delete(name);
  return { names: [...required], patterns: [...patterns], optional: [...optional], all };
}

/** Does a dataset name match a pattern where `*` stands for any run of characters? */
export function matchesDatasetPattern(name: string, pattern: string): boolean {
  const regex = new RegExp('^' + pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
  return regex.test(name);
}
