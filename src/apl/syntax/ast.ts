// The syntax tree the parser produces: what the user wrote, with positions, before any
// name is resolved or type inferred (that is the analyzer's job).
import type { Position } from './position';

export type LiteralValue =
  | { type: 'null' }
  | { type: 'bool'; value: boolean }
  | { type: 'int'; value: bigint }
  | { type: 'real'; value: number }
  | { type: 'string'; value: string }
  /** Nanoseconds since the Unix epoch, UTC. */
  | { type: 'datetime'; nanos: bigint }
  | { type: 'timespan'; nanos: bigint }
  /** A JSON-compatible value (dynamic(...) literals). */
  | { type: 'dynamic'; value: unknown };

export interface Arg {
  /** `name = value` inside a call, as in `arg_max(duration, slowest = uri)`. */
  name?: string;
  value: Expr;
}

export type Expr =
  | { kind: 'literal'; pos: Position; value: LiteralValue; /** A typed null such as int(null). */ nullType?: string }
  /** A field, let-bound name or column; `bracketed` for `['geo.city']`. */
  | { kind: 'name'; pos: Position; name: string; bracketed: boolean }
  | { kind: 'member'; pos: Position; target: Expr; name: string }
  | { kind: 'index'; pos: Position; target: Expr; index: Expr }
  | { kind: 'call'; pos: Position; name: string; args: Arg[] }
  | { kind: 'binary'; pos: Position; op: string; left: Expr; right: Expr }
  | { kind: 'unary'; pos: Position; op: '-' | '+' | 'not'; operand: Expr }
  /** `in`, `!in`, `in~`, `!in~`, `has_any`, `has_all` with their parenthesised lists. */
  | { kind: 'in'; pos: Position; op: string; left: Expr; items: Expr[] }
  | { kind: 'between'; pos: Position; negated: boolean; left: Expr; low: Expr; high: Expr }
  /** `*`: all fields, in `search *`, `distinct *`, `arg_max(x, *)`. */
  | { kind: 'star'; pos: Position }
  /** `field:"term"` inside `search`. */
  | { kind: 'fieldSearch'; pos: Position; field: Expr; term: Expr };

/** `[name =] expression` in project, extend and summarize. */
export interface Assignment {
  pos: Position;
  name?: string;
  namePos?: Position;
  expr: Expr;
}

export interface SortKey {
  pos: Position;
  expr: Expr;
  desc: boolean;
  /** Undefined means the default of the direction (asc: nulls first, desc: nulls last). */
  nullsFirst?: boolean;
}

/** A field name or a wildcard pattern such as `geo.*` in project-away/keep/reorder. */
export interface NamePattern {
  pos: Position;
  pattern: string;
}

export type ParsePart =
  | { kind: 'star'; pos: Position }
  | { kind: 'text'; pos: Position; value: string }
  | { kind: 'column'; pos: Position; name: string; type?: string };

export type JoinCondition =
  | { kind: 'same'; pos: Position; name: string }
  | { kind: 'pair'; pos: Position; left: Expr; right: Expr };

export type Operator =
  | { kind: 'where'; pos: Position; predicate: Expr }
  | { kind: 'project'; pos: Position; items: Assignment[] }
  | { kind: 'project-away'; pos: Position; patterns: NamePattern[] }
  | { kind: 'project-keep'; pos: Position; patterns: NamePattern[] }
  | { kind: 'project-rename'; pos: Position; renames: { pos: Position; newName: string; oldName: string }[] }
  | { kind: 'project-reorder'; pos: Position; items: { pattern: NamePattern; order?: 'asc' | 'desc' }[] }
  | { kind: 'extend'; pos: Position; items: Assignment[] }
  | { kind: 'summarize'; pos: Position; aggregates: Assignment[]; by: Assignment[] }
  | { kind: 'sort'; pos: Position; keys: SortKey[] }
  | { kind: 'take'; pos: Position; count: Expr }
  | { kind: 'top'; pos: Position; count: Expr; key: SortKey }
  | { kind: 'count'; pos: Position }
  | { kind: 'distinct'; pos: Position; items: Expr[] }
  | { kind: 'search'; pos: Position; caseSensitive: boolean; predicate: Expr }
  | { kind: 'parse'; pos: Position; mode: 'simple' | 'regex' | 'relaxed'; source: Expr; parts: ParsePart[] }
  | { kind: 'sample'; pos: Position; count: Expr }
  | { kind: 'getschema'; pos: Position }
  | { kind: 'join'; pos: Position; joinKind: 'inner' | 'innerunique' | 'leftouter'; right: Tabular; on: JoinCondition[] }
  | { kind: 'union'; pos: Position; tables: Tabular[] };

export type Source =
  /** `['name']`, `["name"]` or a bare name: a dataset, or a tabular `let`. */
  | { kind: 'named'; pos: Position; name: string; bracketed: boolean }
  | { kind: 'union'; pos: Position; tables: Tabular[] }
  | { kind: 'subquery'; pos: Position; tabular: Tabular };

export interface Tabular {
  pos: Position;
  source: Source;
  operators: Operator[];
}

export interface LetStatement {
  pos: Position;
  name: string;
  value: { kind: 'scalar'; expr: Expr } | { kind: 'tabular'; tabular: Tabular };
}

export interface Query {
  lets: LetStatement[];
  body: Tabular;
}
