// Sources that are not a single dataset: union (options, wildcard patterns, fuzzy legs), print,
// datatable, search over datasets, and find with its project-smart output.
import { DomainError } from '../../../errors';
import type { Expr, Operator, Source, Tabular, UnionOptions } from '../../syntax/ast';
import { type Position, semanticError } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, displayName, findColumn } from '../binder';
import type { AplType, RelColumn, TExpr } from '../plan';
import { matchesDatasetPattern } from '../references';
import { call, convert, literal } from '../typed';
import { typeFromName } from './common';

interface Leg {
  stage: Stage;
  name: string;
}

/** Datasets whose names match a pattern, in name order. */
function datasetsMatching(analyzer: Analyzer, pattern: string): string[] {
  return [...analyzer.options.datasets.keys()].filter((name) => matchesDatasetPattern(name, pattern)).sort();
}

/** Can a plain name be read as a source (let, function, alias or dataset)? */
function resolvable(analyzer: Analyzer, name: string): boolean {
  const env = analyzer.env;
  return env.tables.has(name) || env.functions.has(name) || analyzer.options.datasets.has(env.aliases.get(name) ?? name);
}

/** The legs of a union, search or find: wildcards expand to every matching dataset. */
function legs(analyzer: Analyzer, tables: Tabular[], fuzzy: boolean, offset = 0): Leg[] {
  const result: Leg[] = [];
  tables.forEach((table, i) => {
    const source = table.source;
    if (source.kind === 'named' && source.wildcard) {
      for (const name of datasetsMatching(analyzer, source.name)) {
        let stage = analyzer.scan(analyzer.options.datasets.get(name)!);
        for (const op of table.operators) stage = analyzer.operator(stage, op);
        result.push({ stage, name });
      }
      return;
    }
    if (source.kind === 'named' && fuzzy && !resolvable(analyzer, source.name)) return;
    result.push({ stage: analyzer.tabular(table), name: source.kind === 'named' && table.operators.length === 0 ? source.name : `union_arg${offset + i}` });
  });
  return result;
}

export function unionSource(analyzer: Analyzer, tables: Tabular[], options: UnionOptions, pos: Position): Stage {
  const found = legs(analyzer, tables, options.isFuzzy === true);
  if (found.length === 0) throw semanticError(pos, 'union found no dataset to read: no name or pattern matched a dataset you can query');
  return analyzer.union(
    found.map((leg) => leg.stage),
    pos,
    options,
    found.map((leg) => leg.name),
  );
}

export function unionOperator(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'union' }>): Stage {
  const options = op.options ?? {};
  const others = legs(analyzer, op.tables, options.isFuzzy === true, 1);
  const inputName = stage.datasets.size === 1 && stage.identity ? [...stage.datasets][0]! : 'union_arg0';
  return analyzer.union(
    [stage, ...others.map((leg) => leg.stage)],
    op.pos,
    options,
    [inputName, ...others.map((leg) => leg.name)],
  );
}

export function printSource(analyzer: Analyzer, source: Extract<Source, { kind: 'print' }>): Stage {
  const scope = analyzer.scope([]);
  const columns: RelColumn[] = [];
  const row: TExpr[] = [];
  source.items.forEach((item, i) => {
    const value = analyzer.binder.bind(item.expr, scope);
    columns.push(analyzer.column(item.name ?? displayName(item.expr) ?? `print_${i}`, value.type === 'null' ? 'string' : value.type));
    row.push(value.type === 'null' ? convert(value, 'string', item.pos, 'a printed value') : value);
  });
  analyzer.checkUnique(columns, source.pos);
  return { rel: { op: 'values', columns, rows: [row] }, order: [], explicitOrder: false, datasets: new Set() };
}

export function datatableSource(analyzer: Analyzer, source: Extract<Source, { kind: 'datatable' }>): Stage {
  const columns = source.columns.map((column) => analyzer.column(column.name, typeFromName(column.type, column.pos)));
  analyzer.checkUnique(columns, source.pos);
  if (source.values.length % columns.length !== 0) {
    throw semanticError(source.pos, `datatable has ${columns.length} columns, so its values must come in groups of ${columns.length}; found ${source.values.length} values`);
  }
  const scope = analyzer.scope([]);
  const rows: TExpr[][] = [];
  for (let at = 0; at < source.values.length; at += columns.length) {
    rows.push(
      columns.map((column, i) => {
        const expr = source.values[at + i]!;
        return convert(analyzer.binder.bind(expr, scope), column.type, expr.pos, `the value of ${column.name}`);
      }),
    );
  }
  return { rel: { op: 'values', columns, rows }, order: [], explicitOrder: false, datasets: new Set() };
}

/** The legs of search and find: the listed tables, or every dataset the caller may query. */
function searchLegs(analyzer: Analyzer, tables: Tabular[] | undefined, pos: Position): Leg[] {
  const found = tables
    ? legs(analyzer, tables, false)
    : [...analyzer.options.datasets.keys()].sort().map((name) => ({ stage: analyzer.scan(analyzer.options.datasets.get(name)!), name }));
  if (found.length === 0) throw semanticError(pos, 'there is no dataset to search');
  return found;
}

/** `search ... predicate` starting a query: the union of its datasets with `$table`, filtered. */
export function searchSource(analyzer: Analyzer, source: Extract<Source, { kind: 'search' }>): Stage {
  const found = searchLegs(analyzer, source.tables, source.pos);
  const union = analyzer.union(
    found.map((leg) => leg.stage),
    source.pos,
    { withSource: '$table' },
    found.map((leg) => leg.name),
  );
  return analyzer.operator(union, { kind: 'search', pos: source.pos, caseSensitive: source.caseSensitive, predicate: source.predicate });
}

/** Ids of the columns an expression reads. */
function columnsRead(expr: TExpr, into = new Set<string>()): Set<string> {
  if (expr.kind === 'column') into.add(expr.id);
  else if (expr.kind === 'call') expr.args.forEach((arg) => columnsRead(arg, into));
  return into;
}

const isUnknownField = (error: unknown) => error instanceof DomainError && error.details?.field !== undefined;

/**
 * `find`: rows matching the predicate in each dataset that has the fields it uses. With
 * project-smart the output holds the fields the predicate names and those every dataset has,
 * the rest packed into `pack_`; with `project` exactly the listed fields (and `pack_all()`).
 */
export function findSource(analyzer: Analyzer, source: Extract<Source, { kind: 'find' }>): Stage {
  const found = searchLegs(analyzer, source.tables, source.pos);
  const references = referencedFields(source.predicate);
  // The type of each referenced field, from the first dataset that has it.
  const typeOf = new Map<string, AplType>();
  const probe = (stage: Stage, ref: Expr): TExpr | undefined => {
    try {
      return analyzer.binder.bind(ref, analyzer.scope(stage.rel.columns));
    } catch (error) {
      if (isUnknownField(error)) return undefined;
      throw error;
    }
  };
  for (const leg of found) {
    for (const ref of references) {
      const bound = probe(leg.stage, ref);
      const name = displayName(ref)!;
      if (bound && !typeOf.has(name) && columnsRead(bound).size > 0) typeOf.set(name, bound.type);
    }
  }
  const matched: { leg: Leg; stage: Stage; referenced: Set<string> }[] = [];
  for (const leg of found) {
    const missing: string[] = [];
    const present = new Set<string>();
    for (const ref of references) {
      const bound = probe(leg.stage, ref);
      if (!bound) missing.push(displayName(ref)!);
      else if (columnsRead(bound).size > 0) present.add(displayName(ref)!);
    }
    // A dataset with none of the fields the predicate names is left out; fields it lacks read as null.
    if (references.length > 0 && present.size === 0 && missing.length > 0) continue;
    let stage = leg.stage;
    if (missing.length) {
      const visible = analyzer.visible(stage);
      const added = [...new Set(missing)].map((name) => {
        const type = typeOf.get(name) ?? 'string';
        return { column: analyzer.column(name, type), expr: literal({ type: 'null' }, type) };
      });
      stage = analyzer.projectStage(stage, [...visible.map((column) => ({ column, expr: columnRef(column) })), ...added]);
    }
    const filtered = analyzer.operator(stage, { kind: 'search', pos: source.pos, caseSensitive: false, predicate: source.predicate });
    matched.push({ leg, stage: filtered, referenced: new Set([...present, ...missing]) });
  }
  if (matched.length === 0) throw semanticError(source.pos, 'no dataset has the fields the find predicate uses');

  let outputs: { name: string; type?: string; pos: Position }[];
  let pack: 'rest' | 'all' | 'none';
  if (source.project) {
    outputs = source.project.columns;
    pack = source.project.packAll ? 'all' : 'none';
  } else {
    const referenced = [...new Set(matched.flatMap((m) => [...m.referenced]))];
    const common = analyzer.visible(matched[0]!.stage).map((c) => c.name).filter((name) => matched.every((m) => findColumn(analyzer.visible(m.stage), name)));
    outputs = [...new Set([...referenced, ...common])].map((name) => ({ name, pos: source.pos }));
    pack = 'rest';
  }
  const stages = matched.map(({ stage }) => {
    const visible = analyzer.visible(stage);
    const items: { column: RelColumn; expr: TExpr }[] = outputs.map((output) => {
      const from = findColumn(visible, output.name);
      const type = output.type ? typeFromName(output.type, output.pos) : (from?.type ?? 'string');
      const expr = from ? convert(columnRef(from), type, output.pos, `field "${output.name}"`) : literal({ type: 'null' }, type);
      return { column: analyzer.column(output.name, type), expr };
    });
    if (pack !== 'none') {
      const packed = visible.filter((c) => pack === 'all' || !outputs.some((o) => o.name === c.name));
      const values = packed.map((c) => convert(columnRef(c), 'dynamic', source.pos, `field "${c.name}"`));
      items.push({ column: analyzer.column('pack_', 'dynamic'), expr: call('pack_present', values, 'dynamic', { keys: packed.map((c) => c.name) }) });
    }
    return analyzer.projectStage(stage, items);
  });
  return analyzer.union(
    stages,
    source.pos,
    { withSource: source.withSource ?? 'source_' },
    matched.map((m) => m.leg.name),
  );
}

/** The field references in a predicate: names and dotted or indexed paths with constant keys. */
function referencedFields(expr: Expr, into: Expr[] = []): Expr[] {
  switch (expr.kind) {
    case 'name':
      if (!expr.name.startsWith('$')) into.push(expr);
      break;
    case 'member':
    case 'index':
      if (displayName(expr) !== undefined) into.push(expr);
      else referencedFields(expr.target, into);
      break;
    case 'call':
      expr.args.forEach((arg) => referencedFields(arg.value, into));
      break;
    case 'binary':
      referencedFields(expr.left, into);
      referencedFields(expr.right, into);
      break;
    case 'unary':
      referencedFields(expr.operand, into);
      break;
    case 'in':
      referencedFields(expr.left, into);
      expr.items.forEach((item) => referencedFields(item, into));
      break;
    case 'between':
      [expr.left, expr.low, expr.high].forEach((part) => referencedFields(part, into));
      break;
    case 'fieldSearch':
      referencedFields(expr.field, into);
      break;
    default:
      break;
  }
  return into;
}
