// The capabilities the API defines, with the actions each allows (Axiom's v2 capability model, as
// the server validates them in /v2/tokens and /v2/rbac/roles): organization capabilities, and
// capabilities scoped to a dataset (or every dataset, "*") or to a view. The lists are the
// server's own (src/auth/roles.ts), so the grid and the API's validation cannot disagree.
import { ALL_DATASET_ACTIONS, ALL_ORG_ACTIONS, ALL_VIEW_ACTIONS } from '@server/auth/roles';
import type { Action } from '../../api/settings';

export const ACTIONS: Action[] = ['create', 'read', 'update', 'delete'];

// The server's own tables: the grid offers exactly what the API accepts.
export const ORG_CAPABILITIES: Record<string, Action[]> = ALL_ORG_ACTIONS;
export const DATASET_CAPABILITIES: Record<string, Action[]> = ALL_DATASET_ACTIONS;
export const VIEW_CAPABILITIES: Record<string, Action[]> = ALL_VIEW_ACTIONS;

/** The base roles every organization has, besides its custom roles. */
export const BASE_ROLES = [
  { id: 'owner', name: 'Owner' },
  { id: 'admin', name: 'Admin' },
  { id: 'user', name: 'User' },
  { id: 'read-only', name: 'Read-only' },
  { id: 'none', name: 'None' },
];

/** Readable names for capability keys ("apiTokens" → "API tokens"). */
const LABELS: Record<string, string> = {
  apiTokens: 'API tokens',
  auditLog: 'Audit log',
  sharedAccessKeys: 'Shared access keys',
  starredQueries: 'Saved queries',
  virtualFields: 'Virtual fields',
  rbac: 'Roles and groups',
};

export function capabilityLabel(key: string): string {
  return LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1);
}
