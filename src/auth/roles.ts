// The base roles every organization has, as capability sets in the same shapes as API tokens
// and custom roles, so every check goes through one code path. Following Axiom's RBAC page:
// owners hold everything; admins everything but billing; users the standard access (ingest and
// query every dataset, manage their saved queries, virtual fields, dashboards, annotations,
// monitors, views and tokens); read-only members read datasets and the shared objects; `none`
// holds nothing (groups add to it).
import type { CapabilitySet } from './capabilities';
import type { Action, DatasetCapability, OrgCapabilities, OrgCapability, ViewCapability } from './principal';

export const BASE_ROLES = ['owner', 'admin', 'user', 'read-only', 'none'] as const;
export type BaseRole = (typeof BASE_ROLES)[number];
/** Kept for callers of the earlier name. */
export const ROLES = BASE_ROLES;
export type Role = BaseRole;

export const BASE_ROLE_NAMES: Record<BaseRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  user: 'User',
  'read-only': 'Read-only',
  none: 'None',
};

export function isBaseRole(role: string): role is BaseRole {
  return (BASE_ROLES as readonly string[]).includes(role);
}

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

/** Every view capability with every action Axiom's v2 spec allows for it. */
export const ALL_VIEW_ACTIONS: Record<ViewCapability, Action[]> = {
  query: ['read'],
  share: ['create', 'read', 'delete'],
};

const { billing: _billing, ...allButBilling } = ALL_ORG_ACTIONS;

const READ_ONLY_ORG: OrgCapabilities = {
  annotations: ['read'],
  dashboards: ['read'],
  datasets: ['read'],
  monitors: ['read'],
  notifiers: ['read'],
  users: ['read'],
  views: ['read'],
};

const BASE_ROLE_CAPABILITIES: Record<BaseRole, CapabilitySet> = {
  owner: {
    datasetCapabilities: { '*': ALL_DATASET_ACTIONS },
    orgCapabilities: ALL_ORG_ACTIONS,
    viewCapabilities: { '*': ALL_VIEW_ACTIONS },
  },
  admin: {
    datasetCapabilities: { '*': ALL_DATASET_ACTIONS },
    orgCapabilities: allButBilling,
    viewCapabilities: { '*': ALL_VIEW_ACTIONS },
  },
  user: {
    datasetCapabilities: {
      '*': { ingest: ['create'], query: ['read'], share: ['read'], starredQueries: CRUD, virtualFields: CRUD },
    },
    orgCapabilities: {
      ...READ_ONLY_ORG,
      annotations: CRUD,
      apiTokens: CRUD,
      dashboards: CRUD,
      datasets: ['create', 'read', 'update'],
      endpoints: ['read'],
      integrations: ['read'],
      monitors: CRUD,
      views: CRUD,
    },
    viewCapabilities: { '*': { query: ['read'], share: ['read'] } },
  },
  'read-only': {
    datasetCapabilities: { '*': { query: ['read'], starredQueries: ['read'], virtualFields: ['read'] } },
    orgCapabilities: READ_ONLY_ORG,
    viewCapabilities: { '*': { query: ['read'] } },
  },
  none: { datasetCapabilities: {}, orgCapabilities: {}, viewCapabilities: {} },
};

/** The capabilities of a base role; an unknown role holds nothing. */
export function baseRoleCapabilities(role: string): CapabilitySet {
  return isBaseRole(role) ? BASE_ROLE_CAPABILITIES[role] : BASE_ROLE_CAPABILITIES.none;
}

/** Kept for callers of the earlier name: the dataset and organization capabilities of a base role. */
export function capabilitiesOfRole(role: string): Pick<CapabilitySet, 'datasetCapabilities' | 'orgCapabilities'> {
  const { datasetCapabilities, orgCapabilities } = baseRoleCapabilities(role);
  return { datasetCapabilities, orgCapabilities };
}
