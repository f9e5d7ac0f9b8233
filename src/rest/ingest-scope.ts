// What every ingest door (the ingest API and each shipper's routes) sets up in its Fastify scope:
// requests wait for an ingest turn before their body is read (the socket holds it meanwhile), so
// memory stays bounded however many clients send at once; and bodies of any media type arrive
// raw, up to the body limit, for the ingest service to decode and the format's parser to read.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES } from '../events/ingest/limits';
import type { Services } from '../services';

export function takeIngestTurns(app: FastifyInstance, services: Services): void {
  const admission = services.ingest.admission;
  const admitted = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    await admission.acquire();
    admitted.add(request);
  });
  const release = async (request: FastifyRequest) => {
    if (admitted.delete(request)) admission.release();
  };
  app.addHook('onSend', async (request, _reply, payload) => {
    await release(request);
    return payload;
  });
  app.addHook('onRequestAbort', release);
}

export function acceptRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
}

/** The raw body of a request in an ingest scope, handed over once: the request keeps no reference. */
export function takeBody(request: FastifyRequest): Buffer {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  request.body = undefined;
  return body;
}
