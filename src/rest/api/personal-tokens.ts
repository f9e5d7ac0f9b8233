// The caller's own personal tokens (`/v2/user/tokens`): list, create (the secret is shown once),
// revoke. They belong to the user, not to an organization, so no organization header is needed.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['user'];
const anyOrganization = { organization: 'none' } as const;

export async function personalTokenRoutes(app: FastifyInstance, { services }: ServicesOf<'identity'>) {
  const { personalTokens } = services.identity;

  app.get('/user/tokens', { schema: { tags, summary: "List the current user's personal tokens" }, config: anyOrganization }, async (request) =>
    personalTokens.list(request.identity),
  );

  app.post(
    '/user/tokens',
    { schema: { tags, summary: 'Create a personal token ({name, description?, expiresAt?}; its secret is shown once)' }, config: anyOrganization },
    async (request) => personalTokens.create(request.identity, request.body),
  );

  app.delete<{ Params: { id: string } }>(
    '/user/tokens/:id',
    { schema: { tags, summary: 'Revoke a personal token of the current user', params: pathParams({ id: 'Personal token id' }) }, config: anyOrganization },
    async (request, reply) => {
      await personalTokens.delete(request.identity, request.params.id);
      return reply.status(204).send();
    },
  );
}
