// Validation of capability documents sent by clients (v2 `/tokens`, `/rbac/roles`): only the
// capabilities and actions Axiom defines, with a message that names the offending key.
import { z } from 'zod';
import type { Action } from './principal';
import { ALL_DATASET_ACTIONS, ALL_ORG_ACTIONS, ALL_VIEW_ACTIONS } from './roles';

function actionsSchema(allowed: Action[]) {
  return z.array(z.enum(allowed as [Action, ...Action[]])).transform((actions) => [...new Set(actions)]);
}

function capabilityObject<K extends string>(allActions: Record<K, Action[]>) {
  const shape = Object.fromEntries(
    Object.entries(allActions).map(([name, actions]) => [name, actionsSchema(actions as Action[]).optional()]),
  ) as Record<K, z.ZodOptional<ReturnType<typeof actionsSchema>>>;
  return z.strictObject(shape);
}

export const datasetCapabilitiesSchema = z.record(
  z.string().regex(/^(\*|[A-Za-z0-9-]{1,128})$/, 'keys must be dataset names or "*"'),
  capabilityObject(ALL_DATASET_ACTIONS),
);

export const orgCapabilitiesSchema = capabilityObject(ALL_ORG_ACTIONS);

export const viewCapabilitiesSchema = z.record(
  z.string().regex(/^(\*|[A-Za-z0-9_-]{1,128})$/, 'keys must be view names or "*"'),
  capabilityObject(ALL_VIEW_ACTIONS),
);
