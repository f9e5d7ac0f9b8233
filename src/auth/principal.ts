// Who is calling and what they may do. Every authenticated request resolves to a Principal
// whose capabilities are evaluated for that request (src/auth/authenticator.ts): a personal
// token holds its user's base role and group roles in the organization, an API token its own
// capabilities bounded by its creator's. Routes and resolvers ask it before touching a
// resource. Capability shapes follow Axiom's v2 API (datasetCapabilities per dataset name or
// "*", orgCapabilities per area, viewCapabilities per view name or "*").
import { forbidden } from '../errors';

export type Action = 'create' | 'read' | 'update' | 'delete';

export type DatasetCapability =
  | 'ingest'
  | 'query'
  | 'trim'
  | 'vacuum'
  | 'data'
  | 'share'
  | 'starredQueries'
  | 'virtualFields';

export type OrgCapability =
  | 'annotations'
  | 'apiTokens'
  | 'auditLog'
  | 'billing'
  | 'dashboards'
  | 'datasets'
  | 'endpoints'
  | 'flows'
  | 'integrations'
  | 'monitors'
  | 'notifiers'
  | 'rbac'
  | 'sharedAccessKeys'
  | 'users'
  | 'views';

export type ViewCapability = 'query' | 'share';

/** `{ "<dataset name or *>": { ingest: ["create"], query: ["read"], ... } }` */
export type DatasetCapabilities = Record<string, Partial<Record<DatasetCapability, Action[]>>>;
/** `{ datasets: ["create", "read"], apiTokens: [...], ... }` */
export type OrgCapabilities = Partial<Record<OrgCapability, Action[]>>;
/** `{ "<view name or *>": { query: ["read"], share: [...] } }` */
export type ViewCapabilities = Record<string, Partial<Record<ViewCapability, Action[]>>>;

export interface Principal {
  tokenId: string;
  kind: 'personal' | 'api';
  orgId: string;
  /** The acting user: the owner of a personal token, the creator of an API token (if known). */
  userId: string | null;
  datasetCapabilities: DatasetCapabilities;
  orgCapabilities: OrgCapabilities;
  viewCapabilities?: ViewCapabilities;
  /** A personal token's base role in the organization ("owner", "admin", ... or a custom role id). */
  role?: string;
}

export function hasDatasetCapability(
  principal: Principal,
  dataset: string,
  capability: DatasetCapability,
  action: Action,
): boolean {
  const forDataset = principal.datasetCapabilities[dataset]?.[capability] ?? [];
  const forAll = principal.datasetCapabilities['*']?.[capability] ?? [];
  return forDataset.includes(action) || forAll.includes(action);
}

export function hasOrgCapability(principal: Principal, capability: OrgCapability, action: Action): boolean {
  return principal.orgCapabilities[capability]?.includes(action) ?? false;
}

export function requireDatasetCapability(
  principal: Principal,
  dataset: string,
  capability: DatasetCapability,
  action: Action,
): void {
  if (!hasDatasetCapability(principal, dataset, capability, action)) {
    throw forbidden(`token lacks the ${capability}:${action} capability on dataset "${dataset}"`);
  }
}

export function requireOrgCapability(principal: Principal, capability: OrgCapability, action: Action): void {
  if (!hasOrgCapability(principal, capability, action)) {
    throw forbidden(`token lacks the ${capability}:${action} capability`);
  }
}

export function hasViewCapability(principal: Principal, view: string, capability: ViewCapability, action: Action): boolean {
  const views = principal.viewCapabilities ?? {};
  return (views[view]?.[capability]?.includes(action) ?? false) || (views['*']?.[capability]?.includes(action) ?? false);
}

export function requireViewCapability(principal: Principal, view: string, capability: ViewCapability, action: Action): void {
  if (!hasViewCapability(principal, view, capability, action)) {
    throw forbidden(`token lacks the ${capability}:${action} capability on view "${view}"`);
  }
}

/** Datasets the principal can reach with a capability, or "*" when all of them. */
export function datasetsWithCapability(
  principal: Principal,
  capability: DatasetCapability,
  action: Action,
): '*' | string[] {
  const names: string[] = [];
  for (const [name, capabilities] of Object.entries(principal.datasetCapabilities)) {
    if (!capabilities[capability]?.includes(action)) continue;
    if (name === '*') return '*';
    names.push(name);
  }
  return names;
}

/** The one dataset a token may ingest into, if there is exactly one (shippers that name none use it). */
export function soleIngestDataset(principal: Principal): string | undefined {
  const names = datasetsWithCapability(principal, 'ingest', 'create');
  return names !== '*' && names.length === 1 ? names[0] : undefined;
}
