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
  /** `in`, `!in`, `in~`, `!in~`, `has_any`, `has_all` with their parenthesised lists (or a tabular subquery). */
  | { kind: 'in'; pos: Position; op: string; left: Expr; items: Expr[]; subquery?: Tabular }
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

export type JoinKind = 'inner' | 'innerunique' | 'leftouter' | 'rightouter' | 'fullouter' | 'leftanti' | 'rightanti' | 'leftsemi' | 'rightsemi';

/** `union` options: `kind=inner|outer`, `withsource=Name`, `isfuzzy=true`. */
export interface UnionOptions {
  kind?: 'inner' | 'outer';
  withSource?: string;
  isFuzzy?: boolean;
}

/** A `Name:type` declaration (datatable columns, parse-kv keys, function parameters). */
export interface TypedName {
  pos: Position;
  name: string;
  type: string;
}

/** One column of `mv-expand`: `[Name =] Expr [to typeof(Type)]`. */
export interface ExpandItem {
  pos: Position;
  name?: string;
  expr: Expr;
  toType?: string;
}

/** One level of `top-nested [N] of Expr [with others = Value] by Aggregation [asc|desc]`. */
export interface TopNestedLevel {
  pos: Position;
  count?: Expr;
  of: Assignment;
  others?: Expr;
  by: Assignment;
  desc: boolean;
}

/** `parse-kv ... with (...)`: delimiters, quotes and escapes, or a regex with key and value groups. */
export interface ParseKvOptions {
  pairDelimiter?: string;
  kvDelimiter?: string;
  quotes: string[];
  escapes: string[];
  greedy: boolean;
  regex?: string;
}

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
  | { kind: 'join'; pos: Position; joinKind: JoinKind; right: Tabular; on: JoinCondition[] }
  | { kind: 'union'; pos: Position; tables: Tabular[]; options?: UnionOptions }
  | { kind: 'lookup'; pos: Position; lookupKind: 'leftouter' | 'inner'; right: Tabular; on: JoinCondition[] }
  | { kind: 'mv-expand'; pos: Position; bagExpansion: 'bag' | 'array'; itemIndex?: string; items: ExpandItem[]; limit?: Expr }
  | {
      kind: 'make-series';
      pos: Position;
      aggregates: { item: Assignment; default?: Expr }[];
      on: Expr;
      from?: Expr;
      to?: Expr;
      step: Expr;
      /** `in range(start, stop, step)`: stop inclusive, bins aligned like bin(). */
      legacyRange?: boolean;
      by: Assignment[];
      nonEmpty: boolean;
    }
  | { kind: 'parse-where'; pos: Position; mode: 'simple' | 'regex'; source: Expr; parts: ParsePart[] }
  | { kind: 'parse-kv'; pos: Position; source: Expr; keys: TypedName[]; options: ParseKvOptions }
  | { kind: 'extend-valid'; pos: Position; items: Assignment[] }
  | {
      kind: 'redact';
      pos: Position;
      replaceToken?: string;
      replaceHash: boolean;
      redactGroups: boolean;
      regexes: Expr[];
      fields?: { pos: Position; name: string }[];
    }
  | { kind: 'top-nested'; pos: Position; levels: TopNestedLevel[] }
  | { kind: 'top-hitters'; pos: Position; count: Expr; of: Assignment; by?: Expr }
  | { kind: 'sample-distinct'; pos: Position; count: Expr; of: Expr }
  | { kind: 'invoke'; pos: Position; name: string; args: Arg[] };

/** A table reference inside `union`, `search in (...)` and `find in (...)`: a name, a wildcard pattern or a subquery. */
export type TableReference = Tabular;

export type Source =
  /** `['name']`, `["name"]` or a bare name: a dataset, or a tabular `let`. */
  | { kind: 'named'; pos: Position; name: string; bracketed: boolean; /** `github*`, `*`: every dataset the name matches. */ wildcard?: boolean }
  | { kind: 'union'; pos: Position; tables: Tabular[]; options?: UnionOptions }
  | { kind: 'subquery'; pos: Position; tabular: Tabular }
  /** `print [Name =] Expr, ...`: one row. */
  | { kind: 'print'; pos: Position; items: Assignment[] }
  /** `datatable (Name:type, ...) [value, ...]`. */
  | { kind: 'datatable'; pos: Position; columns: TypedName[]; values: Expr[] }
  /** `externaldata (...) [urls]`: parsed so it can be refused with a clear message. */
  | { kind: 'externaldata'; pos: Position; columns: TypedName[]; urls: string[] }
  /** `search [kind=...] [in (tables)] predicate` starting a query: over the listed or all datasets. */
  | { kind: 'search'; pos: Position; caseSensitive: boolean; tables?: Tabular[]; predicate: Expr }
  /** `find [withsource=C] [in (tables)] [where] predicate [project-smart | project ...]`. */
  | {
      kind: 'find';
      pos: Position;
      withSource?: string;
      tables?: Tabular[];
      predicate: Expr;
      project?: { columns: { pos: Position; name: string; type?: string }[]; packAll: boolean };
    }
  /** A user-defined tabular function: `name(args)`. */
  | { kind: 'call'; pos: Position; name: string; args: Arg[] };

export interface Tabular {
  pos: Position;
  source: Source;
  operators: Operator[];
}

/** A parameter of a user-defined function: scalar `name:type [= default]` or tabular `T:(*)` / `T:(col:type, ...)`. */
export type FunctionParameter =
  | { kind: 'scalar'; pos: Position; name: string; type: string; default?: Expr }
  | { kind: 'tabular'; pos: Position; name: string; columns?: TypedName[] };

/** The body of a user-defined function: its own let statements, then a scalar or tabular expression. */
export interface FunctionBody {
  lets: LetStatement[];
  value: { kind: 'scalar'; expr: Expr } | { kind: 'tabular'; tabular: Tabular };
}

export interface LetStatement {
  pos: Position;
  name: string;
  value:
    | { kind: 'scalar'; expr: Expr }
    | { kind: 'tabular'; tabular: Tabular }
    | { kind: 'function'; parameters: FunctionParameter[]; body: FunctionBody; view: boolean };
}

/** `set Name [= Value];`: a query option. */
export interface SetOption {
  pos: Position;
  name: string;
  value?: Expr;
}

export interface Query {
  lets: LetStatement[];
  options?: SetOption[];
  body: Tabular;
}
