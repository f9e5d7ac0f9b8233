// The syntax tree of an MPL query, as written (names unresolved, functions as paths). Every node
// keeps its position so later stages can say where a problem is.
import type { Position } from '../../../apl/syntax/position';

export interface Name {
  text: string;
  pos: Position;
}

export interface ParamRef {
  kind: 'param';
  name: string;
  pos: Position;
}

export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

export interface DurationLiteral {
  kind: 'duration';
  amount: number;
  unit: DurationUnit;
  pos: Position;
}

export type DurationExpr = DurationLiteral | ParamRef;

export type TimePoint =
  | { kind: 'relative'; duration: DurationLiteral; pos: Position }
  | { kind: 'epoch'; seconds: number; pos: Position }
  | { kind: 'rfc3339'; text: string; pos: Position }
  | { kind: 'modifier'; sign: 1 | -1; duration: DurationLiteral; pos: Position };

export interface TimeRange {
  start: TimePoint;
  end: TimePoint | null;
  pos: Position;
}

export interface Source {
  dataset: Name | ParamRef;
  metric: Name;
  range: TimeRange | null;
  alias: Name | null;
  pos: Position;
}

export type Literal =
  | { kind: 'string'; value: string; pos: Position }
  | { kind: 'int'; value: bigint; pos: Position }
  | { kind: 'float'; value: number; pos: Position }
  | { kind: 'bool'; value: boolean; pos: Position };

export type ValueExpr = Literal | ParamRef;

export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type TagTypeName = 'string' | 'int' | 'float' | 'bool';

export type FilterExpr =
  | { kind: 'and'; items: FilterExpr[]; pos: Position }
  | { kind: 'or'; items: FilterExpr[]; pos: Position }
  | { kind: 'not'; item: FilterExpr; pos: Position }
  | { kind: 'compare'; tag: Name; op: Comparison; value: ValueExpr; pos: Position }
  | { kind: 'regex'; tag: Name; op: '==' | '!='; pattern: { text: string; pos: Position } | ParamRef; pos: Position }
  | { kind: 'is'; tag: Name; type: TagTypeName; pos: Position };

export interface FilterRule {
  expr: FilterExpr;
  /** `filter` (deprecated) rather than `where`. */
  deprecated: boolean;
  pos: Position;
}

/** A function name with its modules, e.g. `fill::const` is ["fill", "const"]. */
export interface FunctionPath {
  path: string[];
  pos: Position;
}

/** An argument of a bucket function: a name (`count`, `rate`) or a number. */
export type BucketArg = { kind: 'name'; text: string; pos: Position } | { kind: 'number'; value: number; pos: Position };

export type Pipe =
  | { kind: 'map'; fn: FunctionPath; arg: { value: number; pos: Position } | null; pos: Position }
  | { kind: 'map-eval'; op: '+' | '-' | '*' | '/'; value: number; pos: Position }
  | { kind: 'align'; window: DurationExpr | null; over: DurationExpr | null; fn: FunctionPath; pos: Position }
  | { kind: 'group'; tags: Name[] | null; fn: FunctionPath; pos: Position }
  | { kind: 'bucket'; tags: Name[] | null; window: DurationExpr | null; fn: FunctionPath; args: BucketArg[]; pos: Position }
  | { kind: 'as'; name: Name; pos: Position }
  | { kind: 'replace'; target: Name; from: Name | null; replace: { pattern: string; replacement: string; pos: Position } | null; pos: Position }
  | { kind: 'join'; tags: Name[]; dataset: Name | ParamRef; metric: Name; by: Name[]; pos: Position }
  | { kind: 'extend'; assignments: { tag: Name; value: Literal | ParamRef }[]; pos: Position };

export interface SimpleQuery {
  kind: 'simple';
  source: Source;
  sample: { value: number; pos: Position } | null;
  filters: FilterRule[];
  pipes: Pipe[];
  pos: Position;
}

export interface ComputeQuery {
  kind: 'compute';
  left: QueryExpr;
  right: QueryExpr;
  name: Name;
  /** An operator (`/`) or a function path (`min`). */
  fn: FunctionPath;
  pipes: Pipe[];
  pos: Position;
}

export type QueryExpr = SimpleQuery | ComputeQuery;

export type DirectiveValue = Literal | { kind: 'ident'; value: string; pos: Position } | null;

export interface Directive {
  name: Name;
  value: DirectiveValue;
  pos: Position;
}

export type ParamTypeName = 'Dataset' | 'Duration' | 'Regex' | TagTypeName;

export interface ParamDecl {
  name: Name;
  type: ParamTypeName;
  pos: Position;
}

export interface MplQuery {
  directives: Directive[];
  params: ParamDecl[];
  body: QueryExpr;
}
