// The current user: v1 shape (`role` as a string, `permissions`) and v2 shape (`role` object).
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../../identity/users';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['user'];

function userV1(user: CurrentUser) {
  return { id: user.id, name: user.name, email: user.email, role: user.role.id, permissions: [] as string[] };
}

function userV2(user: CurrentUser) {
  return { id: user.id, name: user.name, email: user.email, role: user.role, timeZone: user.timeZone };
}

export async function userRoutes(app: FastifyInstance, { services, version }: ServicesOf<'identity'> & { version: 1 | 2 }) {
  const { users } = services.identity;
  const shape = version === 1 ? userV1 : userV2;

  app.get('/user', { schema: { tags, summary: 'Get the current user' } }, async (request) => shape(await users.current(request.principal)));

  if (version === 2) {
    app.put('/user', { schema: { tags, summary: 'Update the current user ({name?, timeZone?}: an IANA time zone, or null)' } }, async (request) =>
      shape(await users.updateCurrent(request.principal, request.body)),
    );
  }
}
