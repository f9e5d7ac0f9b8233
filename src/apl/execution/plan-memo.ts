// Remembers the compiled plan of a query that comes again with the same inputs (a dashboard
// refreshing, a client polling): analysing and compiling are pure functions of the syntax tree,
// the schemas it reads, the request's window, cursor, limit and variables and the engine's
// settings, so a plan is reused only when every one of those is the same object or value.
// Datasets are still resolved (and access checked) on every request; plans that read the clock
// (`now()`, `ago()`) or a view, or whose window is open-ended, are never remembered.
import { BoundedMemo } from '../../lib/bounded-memo';
import type { DatasetSchema } from '../../fields/schema';

const PLANS_PER_ENGINE = 256;

/** Numbers for objects, so that "the same object" can be part of a key without holding it. */
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;
function idOf(value: object | undefined): string {
  if (!value) return '-';
  let id = objectIds.get(value);
  if (id === undefined) objectIds.set(value, (id = nextObjectId++));
  return String(id);
}

export interface PlanInputs {
  /** The frozen syntax tree (the same text parses to the same tree while remembered). */
  query: object;
  /** The engine's fixed settings: limits, dialect, price boundaries, row maximum, cursor key. */
  settings: readonly (object | number | string | undefined)[];
  startNanos: bigint;
  endNanos: bigint;
  cursor?: string;
  includeCursor?: boolean;
  limit?: number;
  variables?: Record<string, unknown>;
  schemas: readonly DatasetSchema[];
}

/**
 * The key of a plan. A schema stands for its stored fields by the identity of its field list
 * (the registry replaces the list when the layout changes, and never edits it) and for its
 * virtual fields by their text.
 */
export function planKey(inputs: PlanInputs): string {
  const schemas = inputs.schemas.map(
    (schema) => `${schema.name}\u0001${schema.table}\u0001${idOf(schema.fields)}\u0001${schema.virtualFields ? JSON.stringify(schema.virtualFields) : ''}`,
  );
  return [
    idOf(inputs.query),
    inputs.settings.map((setting) => (typeof setting === 'object' ? idOf(setting) : String(setting))).join('\u0001'),
    inputs.startNanos,
    inputs.endNanos,
    inputs.cursor ?? '',
    inputs.includeCursor ? 1 : 0,
    inputs.limit ?? '',
    inputs.variables ? JSON.stringify(inputs.variables) : '',
    ...schemas,
  ].join('\u0000');
}

/** Plans by key, per engine (one per query runner). */
const plansByEngine = new WeakMap<object, BoundedMemo<object>>();

export function plansOf<P extends object>(engine: object): BoundedMemo<P> {
  let plans = plansByEngine.get(engine);
  if (!plans) plansByEngine.set(engine, (plans = new BoundedMemo<object>(PLANS_PER_ENGINE)));
  return plans as BoundedMemo<P>;
}
