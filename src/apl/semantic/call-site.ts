// What a function's type rule sees: its bound arguments and helpers to convert and check them.
import { type Position, semanticError } from '../syntax/position';
import type { AplType, TExpr } from './plan';
import { constantNumber, constantString, convert } from './typed';

export interface QueryContext {
  /** The query's `now()`: one instant for the whole query, as Kusto defines it. */
  nowNanos: bigint;
  /** The span `bin_auto(_time)` uses, derived from the query's time range. */
  autoBinSpan: bigint;
  /** Length of the query's time window, when both ends are known (for `rate`). */
  windowNanos?: bigint;
  /** The key that signs cursors, for `cursor_current()`. */
  cursorKey?: string | Buffer;
}

/** What a call can see of the row it runs over: fields by name (metadata functions, `*`). */
export interface RowScope {
  /** The field of that name, when the input has one (implicit fields such as `_rowId` too). */
  field(name: string): TExpr | undefined;
  /** The visible fields in order, for `pack_array(*)` and `bag_pack(*)`. */
  fields(): { name: string; expr: TExpr }[];
}

const NO_ROW: RowScope = { field: () => undefined, fields: () => [] };

export class CallSite {
  constructor(
    readonly name: string,
    readonly pos: Position,
    readonly args: TExpr[],
    readonly argPositions: Position[],
    readonly context: QueryContext,
    readonly row: RowScope = NO_ROW,
  ) {}

  get count(): number {
    return this.args.length;
  }

  error(message: string, index?: number): Error {
    const at = index === undefined ? this.pos : (this.argPositions[index] ?? this.pos);
    return semanticError(at, `${this.name}(): ${message}`);
  }

  arity(min: number, max = min): void {
    if (this.args.length < min || this.args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw semanticError(this.pos, `${this.name}() expects ${expected} argument${min === 1 && max === 1 ? '' : 's'}, found ${this.args.length}`, {
        expected,
        found: this.args.length,
      });
    }
  }

  raw(index: number): TExpr {
    return this.args[index]!;
  }

  /** Argument `index` converted to `type`. */
  arg(index: number, type: AplType): TExpr {
    return convert(this.args[index]!, type, this.argPositions[index] ?? this.pos, `argument ${index + 1} of ${this.name}()`);
  }

  /** A numeric argument: int and real are kept, other convertible types become real. */
  number(index: number): TExpr {
    const arg = this.args[index]!;
    if (arg.type === 'int' || arg.type === 'real') return arg;
    return this.arg(index, 'real');
  }

  constString(index: number): string {
    const value = constantString(this.args[index]!);
    if (value === undefined) throw this.error('expects a constant string here', index);
    return value;
  }

  /** A constant that configures the call; beyond ±2^53 it cannot be a count, a size or an index. */
  constNumber(index: number): number {
    const value = constantNumber(this.args[index]!);
    if (value === undefined) throw this.error('expects a constant number here', index);
    if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) throw this.error(`expects a constant number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} here`, index);
    return value;
  }

  optionalConstNumber(index: number, fallback: number): number {
    return index < this.args.length ? this.constNumber(index) : fallback;
  }
}
