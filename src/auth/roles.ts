// What a personal token may do follows its user's role in the organization, expressed in the
// same capability shapes as API tokens so that every check goes through one code path.
import type { Action, DatasetCapabilities, DatasetCapability, OrgCapabilities, OrgCapability } from './principal';

export const ROLES = ['owner', 'admin', 'user', 'read-only'] as const;
export type Role = (typeof ROLES)[number];

const CRUD: Action[] = ['create', 'read', 'update', 'delete'];

/** Every dataset capability with every action Axiom's v2 spec allows for it. */
export const ALL_DATASET_ACTIONS: Record<DatasetCapability, Action[]> = {
  ingest: ['create'],
  query: ['read'],
  trim: ['update'],
  vacuum: ['update'],
  data: ['delete'],
  share: ['create', 'read', 'delete'],
  starredQueries: CRUD,
  virtualFields: CRUD,
};

/** Every organization capability with every action Axiom's v2 spec allows for it. */
export const ALL_ORG_ACTIONS: Record<OrgCapability, Action[]> = {
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

function readOnly(actions: Record<string, Action[]>): Record<string, Action[]> {
  return Object.fromEntries(
    Object.entries(actions)
      .map(([name, list]) => [name, list.filter((action) => action === 'read')] as const)
      .filter(([, list]) => list.length > 0),
  );
}

export function capabilitiesOfRole(role: string): { datasetCapabilities: DatasetCapabilities; orgCapabilities: OrgCapabilities } {
  switch (role) {
    case 'owner':
    case 'admin':
      return { datasetCapabilities: { '*': ALL_DATASET_ACTIONS }, orgCapabilities: ALL_ORG_ACTIONS };
    case 'user':
      return {
        datasetCapabilities: { '*': { ...ALL_DATASET_ACTIONS, data: [], share: ['read'] } },
        orgCapabilities: {
          ...readOnly(ALL_ORG_ACTIONS),
          datasets: ['create', 'read', 'update'],
          apiTokens: CRUD,
          annotations: CRUD,
          dashboards: CRUD,
          monitors: CRUD,
          views: CRUD,
        },
      };
    default: // read-only, and any role this version does not know
      return {
        datasetCapabilities: { '*': { query: ['read'], starredQueries: ['read'], virtualFields: ['read'] } },
        orgCapabilities: readOnly(ALL_ORG_ACTIONS),
      };
  }
}
