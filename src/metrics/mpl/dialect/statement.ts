// The statement the MPL compiler builds: common table expressions in order, each plan node's
// relations among them. ClickHouse lets a SELECT's aliases stand for their expressions
// everywhere in that SELECT (aggregates and WHERE included), so relations are computed under
// private names (_s, _t, _v, _g) and renamed once outside (`points`, `tagged`); DuckDB reads
// the same text alike.
import { withoutNul } from '../../store/series-key';
import type { MplEngine } from './engine';

/** A pair of relations describing a series set: points (sid, t, v) and tags (sid, tags). */
export interface Relation {
  pts: string;
  tags: string;
}

export class StatementBuilder {
  private readonly ctes: string[] = [];

  constructor(readonly engine: MplEngine) {}

  /** Adds a common table expression; returns its name. */
  cte(body: string): string {
    const name = `q${this.ctes.length}`;
    this.ctes.push(`${name} AS (${body})`);
    return name;
  }

  /** Points computed as (_s, _t, _v) by `body`, as a relation (sid, t, v). */
  points(body: string): string {
    return this.cte(`SELECT _s AS sid, _t AS t, _v AS v FROM (${body})`);
  }

  /** Tags computed as (_s, _g) by `body`, as a relation (sid, tags). */
  tagged(body: string): string {
    return this.cte(`SELECT _s AS sid, _g AS tags FROM (${body})`);
  }

  /**
   * A string literal holding `value`, for every text that comes from the query. Quoted rather
   * than bound: the engines plan constant tag names and values better (map lookups, filter
   * pushdown). SQL text holds no NUL, which the stores also replace in what they store, so such
   * text still finds what it names.
   */
  param(value: string): string {
    return this.engine.text(withoutNul(value));
  }

  statement(select: string): string {
    return this.ctes.length === 0 ? select : `WITH ${this.ctes.join(',\n')}\n${select}`;
  }
}

/** A table of (code, name) pairs, names already SQL (e.g. the histogram views). */
export function pairsTable(pairs: [number, string][]): string {
  return `(${pairs.map(([code, name], index) => (index === 0 ? `SELECT ${code} AS code, ${name} AS name` : `SELECT ${code}, ${name}`)).join(' UNION ALL ')})`;
}
