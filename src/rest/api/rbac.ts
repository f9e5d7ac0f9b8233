// Axiom v2 RBAC: custom roles and groups.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['rbac'];
type ById = { Params: { id: string } };

export async function rbacRoutes(app: FastifyInstance, { services }: ServicesOf<'identity'>) {
  for (const [path, service, noun] of [
    ['/rbac/roles', services.identity.roles, 'role'],
    ['/rbac/groups', services.identity.groups, 'group'],
  ] as const) {
    const params = pathParams({ id: `The ${noun}'s id` });
    app.get(path, { schema: { tags, summary: `List ${noun}s` } }, async (request) => service.list(request.principal));
    app.post(path, { schema: { tags, summary: `Create a ${noun}` } }, async (request) => service.create(request.principal, request.body));
    app.get<ById>(`${path}/:id`, { schema: { tags, summary: `Get a ${noun}`, params } }, async (request) =>
      service.get(request.principal, request.params.id),
    );
    app.put<ById>(`${path}/:id`, { schema: { tags, summary: `Update a ${noun}`, params } }, async (request) =>
      service.update(request.principal, request.params.id, request.body),
    );
    app.delete<ById>(`${path}/:id`, { schema: { tags, summary: `Delete a ${noun}`, params } }, async (request, reply) => {
      await service.delete(request.principal, request.params.id);
      return reply.status(204).send();
    });
  }
}
