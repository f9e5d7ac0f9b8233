// Axiom v2 organizations. Listing and creating need no organization header (a personal token may
// belong to several); the routes under /orgs/{id} act in the organization of the path.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['orgs'];
const idParam = pathParams({ id: 'Organization id' });
type ById = { Params: { id: string } };
const anyOrganization = { organization: 'none' } as const;

export async function orgRoutes(app: FastifyInstance, { services }: ServicesOf<'identity'>) {
  const { orgs, provisioning } = services.identity;

  app.get('/orgs', { schema: { tags, summary: 'List the organizations of the caller' }, config: anyOrganization }, async (request) =>
    orgs.list(request.identity),
  );

  app.post('/orgs', { schema: { tags, summary: 'Create an organization owned by the caller' }, config: anyOrganization }, async (request) =>
    orgs.create(request.identity, request.body),
  );

  app.get<ById>('/orgs/:id', { schema: { tags, summary: 'Get an organization', params: idParam }, config: anyOrganization }, async (request) =>
    orgs.get(request.identity, request.params.id),
  );

  app.put<ById>('/orgs/:id', { schema: { tags, summary: 'Rename an organization', params: idParam }, config: anyOrganization }, async (request) =>
    orgs.update(request.identity, request.params.id, request.body),
  );

  app.post<ById & { Querystring: { token?: string } }>(
    '/orgs/:id/claim',
    {
      schema: {
        tags,
        summary: 'Claim a provisioned organization (the claim URL), becoming its owner',
        params: idParam,
        querystring: { type: 'object', properties: { token: { type: 'string', description: 'The claim secret of the claim URL' } } },
      },
      config: anyOrganization,
    },
    async (request) => provisioning.claim(request.identity, request.params.id, request.query.token),
  );
}

/** `POST /v2/orgs/provision`: public, outside the token-checking scope. */
export async function provisionRoutes(app: FastifyInstance, { services }: ServicesOf<'identity'>) {
  app.addHook('onRequest', async (request) => {
    request.errorStyle = 'axiom';
  });
  app.post('/orgs/provision', { schema: { tags, summary: 'Provision a temporary organization for an agent (no token needed)' } }, async (request) =>
    services.identity.provisioning.provision(request.body, request.ip, `${request.protocol}://${request.host}`),
  );
}
