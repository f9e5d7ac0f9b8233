// What each plan node's SQL is written with: the statement under construction (and through it
// the engine's hooks) and the relations of the node's inputs.
import type { SeriesNode } from '../semantic/plan';
import type { Relation, StatementBuilder } from './statement';

export interface NodeContext {
  builder: StatementBuilder;
  /** The relations of an input node, compiled into the same statement. */
  relationOf(node: SeriesNode): Relation;
}

/** The bucket start of time column `t` on a grid of `step` seconds from `origin`. */
export function bucketOf(builder: StatementBuilder, t: string, origin: number, step: number): string {
  const { intDiv } = builder.engine;
  return origin === 0 ? `(${intDiv(t, String(step))} * ${step})` : `(${origin} + ${intDiv(`(${t} - ${origin})`, String(step))} * ${step})`;
}

/** Rows before the current one, within a series, in time order (the frame `lag` reads). */
export const BEFORE = 'PARTITION BY sid ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW';
