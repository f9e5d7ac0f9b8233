// The capabilities the API defines, with the actions each allows (Axiom's v2 capability model, as
// the server validates them in /v2/tokens and /v2/rbac/roles): organization capabilities, and
// capabilities scoped to a dataset (or every dataset, "*") or to a view.
import type { Action } from '../../api/settings';

export const ACTIONS: Action[] = ['create', 'read', 'update', 'delete'];
const CRUD: Action[] = ['create', 'read', 'update', 'delete'];

export const ORG_CAPABILITIES: Record<string, Action[]> = {
  annotations: CRUD,
  apiTokens: CRUD,
  auditLog: ['read'],
  billing: ['read', 'update'],
  dashboards: CRUD,
  datasets: CRUD,
  endpoints: CRUD,
  flows: CRUD,
  integrations: CRUD,
  monitors: CRUD,
  notifiers: CRUD,
  rbac: CRUD,
  sharedAccessKeys: ['read', 'update'],
  users: CRUD,
  views: CRUD,
};

export const DATASET_CAPABILITIES: Record<string, Action[]> = {
  ingest: ['create'],
  query: ['read'],
  trim: ['update'],
  vacuum: ['update'],
  data: ['delete'],
  share: ['create', 'read', 'delete'],
  starredQueries: CRUD,
  virtualFields: CRUD,
};

export const VIEW_CAPABILITIES: Record<string, Action[]> = {
  query: ['read'],
  share: ['create', 'read', 'delete'],
};

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
