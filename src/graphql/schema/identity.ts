// GraphQL for organizations, members, custom roles and groups: nodes, connections and mutations
// over the same services as /v2/orgs, /v2/users and /v2/rbac.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { GroupView } from '../../identity/groups';
import type { RoleView } from '../../identity/custom-roles';
import type { OrgView } from '../../identity/orgs';
import { nullWhenMissing, nullWhenNotFound, User, type UserNode } from './auth';
import { builder } from './builder';
import { restBody } from './rest-body';

const OrganizationRef = builder.objectRef<OrgView>('Organization');
builder.node(OrganizationRef, {
  description: 'An organization: everything else belongs to exactly one',
  id: { resolve: (org) => org.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.identity.orgs.get(context.identity(), id)),
  fields: (t) => ({
    orgId: t.exposeString('id', { description: 'The id used by the REST API and in X-Axiom-Org-Id' }),
    name: t.exposeString('name'),
    plan: t.exposeString('plan'),
    role: t.exposeString('role', { nullable: true, description: "The caller's base role in it (personal tokens)" }),
    primaryEmail: t.exposeString('primaryEmail'),
    createdAt: t.field({ type: 'DateTime', resolve: (org) => org.metaCreated }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When an unclaimed provisioned organization is deleted', resolve: (org) => org.expiresAt ?? null }),
  }),
});

const RoleRef = builder.objectRef<RoleView>('Role');
builder.node(RoleRef, {
  description: 'A custom role: capabilities its members (base role) and groups hold',
  id: { resolve: (role) => role.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.identity.roles.get(context.principal(), id)),
  fields: (t) => ({
    roleId: t.exposeString('id', { description: 'The id used by the REST API and in user roles' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    datasetCapabilities: t.field({ type: 'JSON', resolve: (role) => role.datasetCapabilities }),
    orgCapabilities: t.field({ type: 'JSON', resolve: (role) => role.orgCapabilities }),
    viewCapabilities: t.field({ type: 'JSON', resolve: (role) => role.viewCapabilities }),
    memberIds: t.exposeStringList('members', { description: 'Users whose base role this is' }),
  }),
});

const GroupRef = builder.objectRef<GroupView>('Group');
builder.node(GroupRef, {
  description: 'A group: its members hold the capabilities of its roles on top of their base role',
  id: { resolve: (group) => group.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.identity.groups.get(context.principal(), id)),
  fields: (t) => ({
    groupId: t.exposeString('id', { description: 'The id used by the REST API' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    roleIds: t.exposeStringList('roles', { description: 'Base role names or custom role ids' }),
    memberIds: t.exposeStringList('members'),
  }),
});

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    email: t.string({ required: true }),
    role: t.string({ required: true, description: 'owner, admin, user, read-only, none, or a custom role id' }),
  }),
});

const RoleInput = builder.inputType('RoleInput', {
  description: 'Fields left out keep their value on update',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    datasetCapabilities: t.field({ type: 'JSON' }),
    orgCapabilities: t.field({ type: 'JSON' }),
    viewCapabilities: t.field({ type: 'JSON' }),
    members: t.stringList({ description: 'Makes this the base role of exactly these users' }),
  }),
});

const GroupInput = builder.inputType('GroupInput', {
  description: 'Fields left out keep their value on update',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    roles: t.stringList(),
    members: t.stringList(),
  }),
});

builder.queryFields((t) => ({
  organizations: t.connection({
    type: OrganizationRef,
    description: 'The organizations the caller belongs to (an API token: its own)',
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.identity.orgs.list(context.identity())),
  }),
  organization: t.field({
    type: OrganizationRef,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, context) => nullWhenNotFound(() => context.services.identity.orgs.get(context.identity(), id)),
  }),
  users: t.connection({
    type: User,
    description: 'The members of the organization',
    resolve: async (_root, args, context) => {
      const principal = context.principal();
      const members = await context.services.identity.users.list(principal);
      return resolveArrayConnection({ args }, members.map((member): UserNode => ({ ...member, orgId: principal.orgId })));
    },
  }),
  roles: t.connection({
    type: RoleRef,
    description: 'Custom roles, by name',
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.identity.roles.list(context.principal())),
  }),
  groups: t.connection({
    type: GroupRef,
    description: 'Groups, by name',
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.identity.groups.list(context.principal())),
  }),
}));

const asUser = (context: { principal(): { orgId: string } }) => (member: Omit<UserNode, 'orgId'>): UserNode => ({
  ...member,
  orgId: context.principal().orgId,
});

builder.mutationFields((t) => ({
  createOrganization: t.field({
    type: OrganizationRef,
    description: 'Creates an organization owned by the caller (personal tokens)',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, { name }, context) => context.services.identity.orgs.create(context.identity(), { name }),
  }),
  updateOrganization: t.field({
    type: OrganizationRef,
    args: { id: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, { id, name }, context) => context.services.identity.orgs.update(context.identity(), id, { name }),
  }),
  claimOrganization: t.field({
    type: OrganizationRef,
    description: 'Claims a provisioned organization with the token of its claim URL; the caller becomes its owner',
    args: { id: t.arg.string({ required: true }), token: t.arg.string({ required: true }) },
    resolve: (_root, { id, token }, context) => context.services.identity.provisioning.claim(context.identity(), id, token),
  }),
  updateViewer: t.field({
    type: User,
    description: 'Renames the current user and/or sets their time zone (an IANA name; null clears it)',
    args: { name: t.arg.string(), timeZone: t.arg.string() },
    resolve: (_root, { name, timeZone }, context) =>
      context.services.identity.users.updateCurrent(context.principal(), {
        ...(name != null ? { name } : {}),
        ...(timeZone !== undefined ? { timeZone } : {}),
      }),
  }),
  createUser: t.field({
    type: User,
    description: 'Adds a user to the organization (creating the user when the email is new)',
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (_root, { input }, context) => asUser(context)(await context.services.identity.users.create(context.principal(), restBody(input))),
  }),
  updateUserRole: t.field({
    type: User,
    args: { id: t.arg.string({ required: true, description: 'User.userId' }), role: t.arg.string({ required: true }) },
    resolve: async (_root, { id, role }, context) => asUser(context)(await context.services.identity.users.updateRole(context.principal(), id, { role })),
  }),
  removeUser: t.field({
    type: 'ID',
    description: 'Removes the member from the organization; returns their id',
    args: { id: t.arg.string({ required: true, description: 'User.userId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.identity.users.remove(context.principal(), id);
      return id;
    },
  }),
  createRole: t.field({
    type: RoleRef,
    args: { input: t.arg({ type: RoleInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.identity.roles.create(context.principal(), restBody(input)),
  }),
  updateRole: t.field({
    type: RoleRef,
    args: { id: t.arg.string({ required: true, description: 'Role.roleId' }), input: t.arg({ type: RoleInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.identity.roles.update(context.principal(), id, restBody(input)),
  }),
  deleteRole: t.field({
    type: 'ID',
    description: "Deletes the role (its members' base role becomes none); returns its id",
    args: { id: t.arg.string({ required: true, description: 'Role.roleId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.identity.roles.delete(context.principal(), id);
      return id;
    },
  }),
  createGroup: t.field({
    type: GroupRef,
    args: { input: t.arg({ type: GroupInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.identity.groups.create(context.principal(), restBody(input)),
  }),
  updateGroup: t.field({
    type: GroupRef,
    args: { id: t.arg.string({ required: true, description: 'Group.groupId' }), input: t.arg({ type: GroupInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.identity.groups.update(context.principal(), id, restBody(input)),
  }),
  deleteGroup: t.field({
    type: 'ID',
    args: { id: t.arg.string({ required: true, description: 'Group.groupId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.identity.groups.delete(context.principal(), id);
      return id;
    },
  }),
}));
