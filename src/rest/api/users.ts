// Axiom v2 users: the members of the organization, their roles, adding and removing them.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['users'];
const idParam = pathParams({ id: 'User id' });
type ById = { Params: { id: string } };

export async function memberRoutes(app: FastifyInstance, { services }: ServicesOf<'identity'>) {
  const { users } = services.identity;

  app.get('/users', { schema: { tags, summary: 'List the members of the organization' } }, async (request) => users.list(request.principal));

  app.post('/users', { schema: { tags, summary: 'Add a user to the organization ({name, email, role})' } }, async (request) =>
    users.create(request.principal, request.body),
  );

  app.post('/users/invitations', { schema: { tags, summary: 'Invite someone by a one-time link ({email, role}); they become a member when they use it' } }, async (request) =>
    services.identity.invitations.invite(request.principal, request.body),
  );

  app.get<ById>('/users/:id', { schema: { tags, summary: 'Get a member', params: idParam } }, async (request) =>
    users.get(request.principal, request.params.id),
  );

  app.put<ById>('/users/:id/role', { schema: { tags, summary: "Change a member's base role", params: idParam } }, async (request) =>
    users.updateRole(request.principal, request.params.id, request.body),
  );

  app.delete<ById>('/users/:id', { schema: { tags, summary: 'Remove a member from the organization', params: idParam } }, async (request, reply) => {
    await users.remove(request.principal, request.params.id);
    return reply.status(204).send();
  });
}
