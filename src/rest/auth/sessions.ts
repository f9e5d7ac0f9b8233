// The signed-in user's own sessions, so they can see where they are signed in and end what they
// do not recognize: list them (the current one marked), end one, or end every other one. Every
// route acts only on the sessions of the caller's user; another user's session id is not found.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors';
import type { ServicesOf } from '../shared/plugin-options';
import { clearSessionCookie } from './session-cookie';
import { requireSession } from './sign-in';

const tags = ['Console sign-in'];

export async function ownSessionRoutes(app: FastifyInstance, { services }: ServicesOf<'auth' | 'config'>) {
  const { sessions } = services.auth;

  // The console's own door, like the rest of /auth: not in the API that /openapi.json documents.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook('onRequest', async (request) => {
    request.errorStyle = 'axiom';
  });

  app.get('/auth/sessions', { schema: { tags, summary: "The signed-in user's sessions, the current one marked" } }, async (request, reply) => {
    const current = await requireSession(request, services);
    reply.header('cache-control', 'no-store');
    const list = await sessions.listOf(current.userId);
    return list.map((session) => ({ ...session, current: session.id === current.id }));
  });

  app.delete('/auth/sessions', { schema: { tags, summary: 'End every session of the user but the current one' } }, async (request) => {
    const current = await requireSession(request, services);
    return { ended: await sessions.endOthersOf(current.userId, current.id) };
  });

  app.delete<{ Params: { id: string } }>('/auth/sessions/:id', { schema: { tags, summary: 'End one session of the user (the current one signs out)' } }, async (request, reply) => {
    const current = await requireSession(request, services);
    if (!(await sessions.endOf(current.userId, request.params.id))) throw notFound(`session "${request.params.id}" not found`);
    if (request.params.id === current.id) clearSessionCookie(reply, services.config);
    return reply.status(204).send();
  });
}
