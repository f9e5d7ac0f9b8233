// What every ingest door (the ingest API and each shipper's routes) sets up in its Fastify scope:
// bodies of any media type arrive raw, for the ingest service to decode and the format's parser
// to read, and each is read completely (within the time, rate and memory limits of
// ingest-body.ts, shared fairly between tokens) before its request waits for an ingest turn, so
// a client that stalls holds only its own reservation, and only until the idle timeout. The
// turn itself is taken by the ingest service (`ingest`, `ingestEvents`, `inTurn`).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Grant } from '../../ingest/admission';
import type { IngestBody } from '../../ingest/ingest-service';
import { MAX_BODY_BYTES } from '../../ingest/limits';
import type { Services } from '../../services';
import { headerReader } from './headers';
import { closeAfterAnswer, readBodyWithin } from './ingest-body';

export function readIngestBodies(app: FastifyInstance, services: Pick<Services, 'config' | 'ingest'>): void {
  const { config } = services;
  const limits = { maxBytes: MAX_BODY_BYTES, idleTimeoutMs: config.ingest.bodyIdleTimeoutMs, minBytesPerSecond: config.ingest.bodyMinBytesPerSecond };
  // The reservation of each request's body bytes, given back once the request is answered.
  const reservations = new WeakMap<FastifyRequest, Grant>();

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    readBodyWithin(request, payload, services.ingest.bodies, request.principal.tokenId, limits).then(
      ({ body, grant }) => {
        reservations.set(request, grant);
        done(null, body);
      },
      (error: Error) => done(error, undefined),
    );
  });
  const release = async (request: FastifyRequest) => reservations.get(request)?.release();
  // The service is done with the body once the answer is ready. An answer given before the body
  // was read to its end closes the connection: what is left of the body cannot be told apart
  // from a next request.
  app.addHook('onSend', async (request, reply, payload) => {
    await release(request);
    if (closeAfterAnswer.has(request)) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
}

/** The raw body of a request in an ingest scope, handed over once: the request keeps no reference. */
export function takeBody(request: FastifyRequest): Buffer {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  request.body = undefined;
  return body;
}

/** The raw body (handed over once, as takeBody) with the headers that say how to decode it. */
export function takeEncodedBody(request: FastifyRequest): IngestBody {
  const header = headerReader(request);
  return { body: takeBody(request), contentType: header('content-type'), contentEncoding: header('content-encoding') };
}
