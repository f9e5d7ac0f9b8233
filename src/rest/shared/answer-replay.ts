// Answers replayed in front of the router. Some answers depend only on the bytes of the request
// (method, URL, the few headers that change an answer, the body) and on one generation of the
// data they read: the public catalog's REST routes and its GraphQL queries. Once the application
// has answered such a request, the exact status, headers and body it sent are kept, and the same
// request is answered with them straight from the HTTP server's request event, without the cost
// of the framework's request lifecycle (routing, hooks, the reply pipeline): the catalog then
// answers at the speed of a bare node:http server (bench/catalog.ts). Everything else, and every
// first request, goes through Fastify as before; an answer is kept only when it went out
// uncompressed with a 200, and all of them are dropped when the generation changes.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CatalogVersionCache } from '../../catalog/version-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** Keeps answers that may be replayed (see src/rest/shared/answer-replay.ts); absent when replay is off. */
    answerReplay?: AnswerReplay;
  }
}

type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface AnswerReplayOptions {
  /** What the kept answers were computed from: when it changes, they are all dropped. */
  generation: () => string;
  /** GET paths (prefixes of the URL) whose answers may be kept. */
  getPrefixes: readonly string[];
  /** POST URLs whose bodies are read here first, so that their answers may be kept. */
  postUrls: readonly string[];
  /** Larger POST bodies go to the router unread. */
  maxBodyBytes?: number;
  /** Bytes of bodies kept at most (the least recently used go first). */
  maxBytes?: number;
}

interface KeptAnswer {
  /** Bytes it holds: the body and the request signature it is kept under, roughly. */
  size: number;
  status: number;
  headers: OutgoingHttpHeaders | Record<string, number | string | string[] | undefined>;
  body: Buffer;
}

/** A request the router answers: what its answer would be kept under. */
interface Pending {
  signature: string;
  generation: string;
}

/** Request headers that can change an answer of the routes kept: compression, CORS, GraphQL's media types. */
const VARYING_HEADERS = ['accept', 'accept-encoding', 'x-no-compression', 'origin', 'access-control-request-method', 'content-type'] as const;

/** The request as far as the answer can tell: an absent header differs from an empty one. */
function signatureOf(request: IncomingMessage, body = ''): string {
  let signature = `${request.method} ${request.url}`;
  for (const name of VARYING_HEADERS) {
    const value = request.headers[name];
    signature += value === undefined ? '\n' : `\n:${value}`;
  }
  return `${signature}\n${body}`;
}

export class AnswerReplay {
  /** Off while the server closes (the router then answers 503) and when requests are logged. */
  enabled = true;
  private readonly answers: CatalogVersionCache<KeptAnswer>;
  private readonly pending = new WeakMap<IncomingMessage, Pending>();
  private readonly bodiesRead = new WeakMap<IncomingMessage, Buffer>();
  private readonly maxBodyBytes: number;

  constructor(private readonly options: AnswerReplayOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
    this.answers = new CatalogVersionCache<KeptAnswer>((answer) => answer.size, options.maxBytes);
  }

  /**
   * Handles one request of the HTTP server: answers it when an identical one was answered in
   * this generation, else passes it to `route` (for a POST, once its body is read).
   */
  serve(request: IncomingMessage, response: ServerResponse, route: Route): void {
    const { method, url = '', headers } = request;
    if (!this.enabled) return route(request, response);
    if (method === 'GET') {
      if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return route(request, response);
      if (!this.options.getPrefixes.some((prefix) => url.startsWith(prefix))) return route(request, response);
      return this.answerOrRoute(request, response, signatureOf(request), route);
    }
    if (method === 'POST' && this.options.postUrls.includes(url)) {
      const length = Number(headers['content-length']);
      const plain = headers['transfer-encoding'] === undefined && headers['content-encoding'] === undefined && headers.expect === undefined;
      if (!plain || !(length > 0 && length <= this.maxBodyBytes)) return route(request, response);
      return this.readBody(request, length, (body) => this.answerOrRoute(request, response, signatureOf(request, body.toString('latin1')), route, body));
    }
    return route(request, response);
  }

  /** The body read here before routing, as the stream the router's body parser reads instead. */
  bodyStream(request: IncomingMessage): Readable | undefined {
    const body = this.bodiesRead.get(request);
    if (!body) return undefined;
    this.bodiesRead.delete(request);
    return Readable.from([body]);
  }

  /**
   * Keeps the answer the route is sending, `body` as it is given to `reply.send`: once it has
   * gone out, if it went out as a 200 without a Content-Encoding and in this same generation.
   */
  keep(request: FastifyRequest, reply: FastifyReply, body: Buffer): void {
    const pending = this.pending.get(request.raw);
    if (!pending) return;
    this.pending.delete(request.raw);
    reply.raw.once('finish', () => {
      const headers = reply.getHeaders();
      const sentWhole = reply.statusCode === 200 && headers['content-encoding'] === undefined && Number(headers['content-length']) === body.length;
      if (sentWhole && this.enabled && pending.generation === this.generationNow()) {
        const size = body.length + pending.signature.length + 512;
        this.answers.set(pending.generation, pending.signature, { size, status: reply.statusCode, headers, body });
      }
    });
  }

  private generationNow(): string | undefined {
    try {
      return this.options.generation();
    } catch {
      return undefined; // nothing to read yet (e.g. the catalog is not loaded)
    }
  }

  /** `body`: the request body read here, which the router must then be given. */
  private answerOrRoute(request: IncomingMessage, response: ServerResponse, signature: string, route: Route, body?: Buffer): void {
    const generation = this.generationNow();
    const kept = generation === undefined ? undefined : this.answers.get(generation, signature);
    if (!kept) {
      if (body) this.bodiesRead.set(request, body);
      if (generation !== undefined) this.pending.set(request, { signature, generation });
      return route(request, response);
    }
    response.writeHead(kept.status, kept.headers);
    response.end(kept.body);
  }

  /**
   * Reads a body of `length` bytes (its Content-Length, which the HTTP parser holds it to), and
   * goes on as soon as the last byte is in, without waiting for the stream's end a tick later.
   * A request that breaks off on the way gets no answer (its socket is gone).
   */
  private readBody(request: IncomingMessage, length: number, then: (body: Buffer) => void): void {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size === length) then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
  }
}

/**
 * Puts `replay` in front of the Fastify instance's router: Fastify serves every request of its
 * HTTP server through one request listener, which is wrapped here. Also offers the replay to
 * routes (`app.answerReplay`) and turns it off when the instance starts closing.
 */
export function installAnswerReplay(app: FastifyInstance, replay: AnswerReplay): void {
  const listeners = app.server.listeners('request') as Route[];
  if (listeners.length !== 1) throw new Error(`expected Fastify's one request listener, found ${listeners.length}`);
  const [route] = listeners as [Route];
  app.server.removeListener('request', route);
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => replay.serve(request, response, route));
  app.decorate('answerReplay', replay);
  app.addHook('preClose', async () => {
    replay.enabled = false;
  });
}
