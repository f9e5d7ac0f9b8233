// The settings area's calls: the signed-in user (profile, time zone, password, personal tokens,
// sessions) and the organization (members and invitations, custom roles, groups, API tokens,
// organizations). REST throughout, the same routes any client uses.
import { api } from './client';
import type { Session } from './session';

export type Action = 'create' | 'read' | 'update' | 'delete';
/** `{ "<dataset or *>": { ingest: ["create"], ... } }` */
export type DatasetCapabilities = Record<string, Partial<Record<string, Action[]>>>;
/** `{ datasets: ["read"], ... }` */
export type OrgCapabilities = Partial<Record<string, Action[]>>;
/** `{ "<view or *>": { query: ["read"] } }` */
export type ViewCapabilities = Record<string, Partial<Record<string, Action[]>>>;

export interface CapabilitySet {
  datasetCapabilities: DatasetCapabilities;
  orgCapabilities: OrgCapabilities;
  viewCapabilities: ViewCapabilities;
}

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  role: { id: string; name: string };
  timeZone: string | null;
}

export interface PersonalToken {
  id: string;
  name: string;
  description: string;
  expiresAt: string | null;
  createdAt: string;
}

export interface SessionEntry {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export interface Member {
  id: string;
  name: string;
  email: string;
  role: { id: string; name: string };
}

export interface Invitation {
  email: string;
  role: { id: string; name: string };
  url: string;
  token: string;
  expiresAt: string;
  organization: { id: string; name: string };
  mailed: boolean;
}

export interface CustomRole extends CapabilitySet {
  id: string;
  name: string;
  description: string;
  members: string[];
}

export interface Group {
  id: string;
  name: string;
  description: string;
  roles: string[];
  members: string[];
}

export interface ApiToken extends CapabilitySet {
  id: string;
  name: string;
  description: string;
  expiresAt: string | null;
  createdAt: string;
}

export type CreatedSecret<T> = T & { token: string };

export interface Organization {
  id: string;
  name: string;
  plan: string;
  role?: string;
  primaryEmail: string;
  metaCreated: string;
  expiresAt?: string;
}

// The user
export const fetchCurrentUser = () => api<CurrentUser>('/v2/user');
export const updateCurrentUser = (changes: { name?: string; timeZone?: string | null }) => api<CurrentUser>('/v2/user', { method: 'PUT', body: changes });
export const changePassword = (currentPassword: string, newPassword: string) => api<Session>('/auth/password', { body: { currentPassword, newPassword } });

export const listPersonalTokens = () => api<PersonalToken[]>('/v2/user/tokens');
export const createPersonalToken = (input: { name: string; description?: string; expiresAt?: string | null }) =>
  api<CreatedSecret<PersonalToken>>('/v2/user/tokens', { body: input });
export const revokePersonalToken = (id: string) => api<void>(`/v2/user/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const listSessions = () => api<SessionEntry[]>('/auth/sessions');
export const endSession = (id: string) => api<void>(`/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const endOtherSessions = () => api<{ ended: number }>('/auth/sessions', { method: 'DELETE' });

// The organization
export const listMembers = () => api<Member[]>('/v2/users');
export const inviteMember = (email: string, role: string) => api<Invitation>('/v2/users/invitations', { body: { email, role } });
export const changeMemberRole = (id: string, role: string) => api<Member>(`/v2/users/${encodeURIComponent(id)}/role`, { method: 'PUT', body: { role } });
export const removeMember = (id: string) => api<void>(`/v2/users/${encodeURIComponent(id)}`, { method: 'DELETE' });

export type RoleInput = Partial<CapabilitySet> & { name?: string; description?: string; members?: string[] };
export const listRoles = () => api<CustomRole[]>('/v2/rbac/roles');
export const createRole = (input: RoleInput) => api<CustomRole>('/v2/rbac/roles', { body: input });
export const updateRole = (id: string, input: RoleInput) => api<CustomRole>(`/v2/rbac/roles/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
export const deleteRole = (id: string) => api<void>(`/v2/rbac/roles/${encodeURIComponent(id)}`, { method: 'DELETE' });

export type GroupInput = Partial<Omit<Group, 'id'>>;
export const listGroups = () => api<Group[]>('/v2/rbac/groups');
export const createGroup = (input: GroupInput) => api<Group>('/v2/rbac/groups', { body: input });
export const updateGroup = (id: string, input: GroupInput) => api<Group>(`/v2/rbac/groups/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
export const deleteGroup = (id: string) => api<void>(`/v2/rbac/groups/${encodeURIComponent(id)}`, { method: 'DELETE' });

export type ApiTokenInput = CapabilitySet & { name: string; description: string; expiresAt: string | null };
export const listApiTokens = () => api<ApiToken[]>('/v2/tokens');
export const createApiToken = (input: ApiTokenInput) => api<CreatedSecret<ApiToken>>('/v2/tokens', { body: input });
export const regenerateApiToken = (id: string, existingTokenExpiresAt: string, newTokenExpiresAt: string | null) =>
  api<CreatedSecret<ApiToken>>(`/v2/tokens/${encodeURIComponent(id)}/regenerate`, { body: { existingTokenExpiresAt, newTokenExpiresAt } });
export const deleteApiToken = (id: string) => api<void>(`/v2/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const listOrganizations = () => api<Organization[]>('/v2/orgs');
export const createOrganization = (name: string) => api<Organization>('/v2/orgs', { body: { name } });
export const renameOrganization = (id: string, name: string) => api<Organization>(`/v2/orgs/${encodeURIComponent(id)}`, { method: 'PUT', body: { name } });

/** Dataset names, to offer in dataset-scoped capabilities. */
export const listDatasetNames = async () => (await api<{ name: string }[]>('/v2/datasets')).map((dataset) => dataset.name);
