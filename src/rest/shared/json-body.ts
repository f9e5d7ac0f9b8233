// JSON bodies: Fastify's own parser (with its prototype-poisoning protection), except that an
// empty body is no body, and a body nested deeper than JSON_MAX_DEPTH is refused before any
// route walks it. Official Axiom clients send `Content-Type: application/json` on DELETE
// requests without a body, which Fastify would otherwise refuse.
import type { FastifyInstance } from 'fastify';
import { invalidInput } from '../../errors';
import { nestsDeeperThan } from '../../lib/json-depth';

export function parseJsonBodies(app: FastifyInstance, maxDepth: number) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      if (nestsDeeperThan(value, maxDepth)) return done(invalidInput(`request body nests deeper than ${maxDepth} levels`), undefined);
      return done(null, value);
    });
  });
}
