// JSON bodies: Fastify's own parser (with its prototype-poisoning protection), except that an
// empty body is no body. Official Axiom clients send `Content-Type: application/json` on
// DELETE requests without a body, which Fastify would otherwise refuse.
import type { FastifyInstance } from 'fastify';

export function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}
