// parse_sql and format_sql: a SQL statement as the data model Axiom documents (statement,
// columns, from, where, order, ...; expressions as {colname}, {value, valtype} and
// {operator, params}), and back to lower-case SQL text. node-sql-parser reads the statement;
// the model and the printer are ours. Text it cannot read, or a construct outside the model
// (subqueries, CASE, window functions), gives null.
import type sqlParserModule from 'node-sql-parser/build/mysql.js';
import { onFirstUse } from '../../lib/on-first-use';

type Node = Record<string, unknown>;
export type SqlExpr = Record<string, unknown>;

/** The parser (a megabyte of generated code) is loaded by the first parse_sql. */
const parserPackage = onFirstUse<typeof sqlParserModule>('node-sql-parser/build/mysql.js');
let sqlParser: InstanceType<typeof sqlParserModule.Parser> | undefined;
const parser = () => (sqlParser ??= new (parserPackage().Parser)());

class Unsupported extends Error {}

function expr(node: unknown): SqlExpr {
  if (!node || typeof node !== 'object') throw new Unsupported('expression');
  const n = node as Node;
  switch (n.type) {
    case 'column_ref': {
      const column = n.column as unknown;
      const name = typeof column === 'string' ? column : (column as { expr?: { value?: string } })?.expr?.value;
      if (typeof name !== 'string') throw new Unsupported('column');
      return n.table ? { colname: name, table: n.table } : { colname: name };
    }
    case 'star':
      return { colname: '*' };
    case 'number':
      return { value: String(n.value), valtype: Number.isInteger(n.value) ? 'integer' : 'float' };
    case 'single_quote_string':
    case 'double_quote_string':
    case 'string':
      return { value: String(n.value), valtype: 'string' };
    case 'bool':
      return { value: String(n.value), valtype: 'bool' };
    case 'null':
      return { valtype: 'null' };
    case 'binary_expr':
      return { operator: String(n.operator).toLowerCase(), params: [expr(n.left), expr(n.right)] };
    case 'unary_expr':
      return { operator: String(n.operator).toLowerCase(), params: [expr(n.expr)] };
    case 'expr_list':
      return { list: (n.value as unknown[]).map(expr) };
    case 'aggr_func':
    case 'function': {
      const rawName = n.name as unknown;
      const name = typeof rawName === 'string' ? rawName : ((rawName as { name?: { value: string }[] })?.name ?? []).map((part) => part.value).join('.');
      const args = n.args as Node | undefined;
      const list = args ? (args.type === 'expr_list' ? (args.value as unknown[]) : [args.expr]) : [];
      const params = list.filter((arg) => arg !== undefined && arg !== null).map(expr);
      const result: SqlExpr = { func: name.toLowerCase(), params };
      if (args?.distinct) result.distinct = true;
      return result;
    }
    default:
      throw new Unsupported(String(n.type));
  }
}

function tables(list: unknown): SqlExpr[] {
  return ((list as Node[] | null) ?? []).map((t) => {
    if (typeof t.table !== 'string') throw new Unsupported('table');
    const result: SqlExpr = { table: t.table };
    if (t.db) result.db = t.db;
    if (t.as) result.alias = t.as;
    if (t.join) result.join = String(t.join).toLowerCase();
    if (t.on) result.on = expr(t.on);
    return result;
  });
}

function model(ast: Node): SqlExpr {
  if (ast.with) throw new Unsupported('with');
  switch (ast.type) {
    case 'select': {
      const result: SqlExpr = { statement: 'select' };
      if (ast.distinct) result.distinct = true;
      const columns = ast.columns === '*' ? [{ expr: { type: 'star' } }] : (ast.columns as Node[]);
      result.columns = columns.map((c) => (c.as ? { ...expr(c.expr), alias: c.as } : expr(c.expr)));
      if (ast.from) result.from = tables(ast.from);
      if (ast.where) result.where = expr(ast.where);
      const group = ast.groupby as Node | null;
      if (group?.columns) result.group = (group.columns as unknown[]).map(expr);
      if (ast.having) result.having = expr(ast.having);
      if (ast.orderby) result.order = (ast.orderby as Node[]).map((o) => ({ direction: String(o.type ?? 'asc').toLowerCase(), expr: expr(o.expr) }));
      const limit = ast.limit as { seperator: string; value: unknown[] } | null;
      if (limit?.value?.length) {
        const values = limit.value.map(expr);
        // "limit a, b" is offset a, count b; "limit b offset a" lists them the other way round.
        if (values.length === 1) result.limit = values[0];
        else if (limit.seperator === ',') [result.offset, result.limit] = values;
        else [result.limit, result.offset] = values;
      }
      return result;
    }
    case 'update':
      return {
        statement: 'update',
        table: tables(ast.table),
        set: (ast.set as Node[]).map((s) => ({ colname: s.column, value: expr(s.value) })),
        ...(ast.where ? { where: expr(ast.where) } : {}),
      };
    case 'insert': {
      const values = ast.values as Node;
      if (values?.type !== 'values') throw new Unsupported('insert');
      return {
        statement: 'insert',
        table: tables(ast.table),
        ...(ast.columns ? { columns: ast.columns } : {}),
        values: (values.values as Node[]).map((row) => (row.value as unknown[]).map(expr)),
      };
    }
    case 'delete':
      return { statement: 'delete', from: tables(ast.from), ...(ast.where ? { where: expr(ast.where) } : {}) };
    default:
      throw new Unsupported(String(ast.type));
  }
}

/** The data model of one SQL statement, or null when it cannot be read. */
export function parseSql(text: string): SqlExpr | null {
  try {
    const ast = parser().astify(text);
    const statements = Array.isArray(ast) ? ast : [ast];
    if (statements.length !== 1) return null;
    return model(statements[0] as unknown as Node);
  } catch {
    return null;
  }
}

// ---- printing ---------------------------------------------------------------------------

const PRECEDENCE: Record<string, number> = { or: 1, xor: 1, and: 2, not: 3 };
const precedenceOf = (e: SqlExpr) => (typeof e.operator === 'string' ? (PRECEDENCE[e.operator] ?? 4) : 5);

function quoteText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function printExpr(e: unknown, parent = 0): string {
  if (!e || typeof e !== 'object') throw new Unsupported('expression');
  const x = e as SqlExpr;
  let text: string;
  if (typeof x.colname === 'string') text = x.table ? `${String(x.table)}.${x.colname}` : x.colname;
  else if (typeof x.valtype === 'string') {
    if (x.valtype === 'null') text = 'null';
    else if (x.valtype === 'string') text = quoteText(String(x.value));
    else text = String(x.value);
  } else if (Array.isArray(x.list)) text = `(${x.list.map((item) => printExpr(item)).join(', ')})`;
  else if (typeof x.func === 'string') {
    const params = Array.isArray(x.params) ? x.params.map((p) => printExpr(p)) : [];
    text = `${x.func}(${x.distinct ? 'distinct ' : ''}${params.join(', ')})`;
  } else if (typeof x.operator === 'string' && Array.isArray(x.params)) {
    const own = precedenceOf(x);
    const params = x.params as unknown[];
    if (params.length === 1) text = `${x.operator} ${printExpr(params[0], own)}`;
    else if (x.operator === 'between' || x.operator === 'not between') {
      const range = (params[1] as SqlExpr).list as unknown[];
      text = `${printExpr(params[0], own)} ${x.operator} ${printExpr(range[0], own)} and ${printExpr(range[1], own)}`;
    } else text = `${printExpr(params[0], own)} ${x.operator} ${printExpr(params[1], own + 0.5)}`;
    if (own < parent) text = `(${text})`;
  } else throw new Unsupported('expression');
  return text;
}

const aliased = (e: SqlExpr) => (e.alias ? `${printExpr(e)} as ${String(e.alias)}` : printExpr(e));

function printTables(list: unknown): string {
  return (list as SqlExpr[])
    .map((t, i) => {
      const name = `${t.db ? `${String(t.db)}.` : ''}${String(t.table)}${t.alias ? ` as ${String(t.alias)}` : ''}`;
      if (i === 0) return name;
      return t.join ? ` ${String(t.join)} ${name}${t.on ? ` on ${printExpr(t.on)}` : ''}` : `, ${name}`;
    })
    .join('');
}

/** SQL text for a model made by parseSql (or by hand in its shape), or null. */
export function formatSql(modelValue: unknown): string | null {
  try {
    const m = modelValue as SqlExpr;
    switch (m.statement) {
      case 'select': {
        const parts = [`select ${m.distinct ? 'distinct ' : ''}${(m.columns as SqlExpr[]).map(aliased).join(', ')}`];
        if (m.from) parts.push(`from ${printTables(m.from)}`);
        if (m.where) parts.push(`where ${printExpr(m.where)}`);
        if (m.group) parts.push(`group by ${(m.group as unknown[]).map((g) => printExpr(g)).join(', ')}`);
        if (m.having) parts.push(`having ${printExpr(m.having)}`);
        if (m.order) parts.push(`order by ${(m.order as SqlExpr[]).map((o) => `${printExpr(o.expr)}${o.direction && o.direction !== 'asc' ? ` ${String(o.direction)}` : ''}`).join(', ')}`);
        if (m.limit) parts.push(`limit ${printExpr(m.limit)}`);
        if (m.offset) parts.push(`offset ${printExpr(m.offset)}`);
        return parts.join(' ');
      }
      case 'update':
        return `update ${printTables(m.table)} set ${(m.set as SqlExpr[]).map((s) => `${String(s.colname)} = ${printExpr(s.value)}`).join(', ')}${m.where ? ` where ${printExpr(m.where)}` : ''}`;
      case 'insert':
        return `insert into ${printTables(m.table)}${m.columns ? ` (${(m.columns as string[]).join(', ')})` : ''} values ${(m.values as unknown[][]).map((row) => `(${row.map((v) => printExpr(v)).join(', ')})`).join(', ')}`;
      case 'delete':
        return `delete from ${printTables(m.from)}${m.where ? ` where ${printExpr(m.where)}` : ''}`;
      default:
        return null;
    }
  } catch {
    return null;
  }
}
