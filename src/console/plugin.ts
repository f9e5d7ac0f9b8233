// Serves the web console: `/` redirects to `/app/`; `/app/assets/*` are the build's hashed files
// (cached for a year, sent precompressed when the client accepts it); every other `/app/*` path
// is a client-side route and gets the page, rendered per request with a fresh CSP nonce.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '../config';
import { sendError } from '../rest/shared/error-handler';
import { ConsoleBundle, type StaticFile } from './bundle';
import { consolePolicy, freshNonce } from './csp';
import { chooseCoding } from './encoding';

const NOT_BUILT =
  'The web console is not built on this server. Build it with `npm run build:console` ' +
  '(`npm install` builds it too), then reload this page. The API works without it.\n';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** If-None-Match matches when it lists the ETag (weakly compared) or is `*`. */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === etag;
  });
}

async function sendFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  const coding = chooseCoding(request.headers['accept-encoding'], file.codings);
  let variant;
  try {
    variant = await file.read(coding);
  } catch {
    // Gone under our feet: a new build replaced the folder since its list was read.
    return sendError(request, reply, 404, 'no such console file');
  }
  reply
    .header('cache-control', file.immutable ? IMMUTABLE : REVALIDATE)
    .header('etag', variant.etag)
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff');
  if (notModified(request.headers['if-none-match'], variant.etag)) return reply.code(304).send();
  if (coding !== 'identity') reply.header('content-encoding', coding);
  return reply.type(file.contentType).send(variant.body);
}

export async function registerConsole(app: FastifyInstance, options: { config: ConsoleConfig }) {
  if (!options.config.enabled) return;
  const bundle = new ConsoleBundle(options.config.distDir);

  const notBuilt = (reply: FastifyReply) =>
    reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);

  const sendPage = async (_request: FastifyRequest, reply: FastifyReply) => {
    const nonce = freshNonce();
    const page = await bundle.page(nonce);
    if (page === undefined) return notBuilt(reply);
    return reply
      .header('content-security-policy', consolePolicy(nonce))
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page);
  };

  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/app/', 302));

  // Precompressed at build time: nothing left for the response compression to do.
  app.get<{ Params: { '*': string } }>('/app/assets/*', { schema: { hide: true }, compress: false }, async (request, reply) => {
    const file = await bundle.file(`assets/${request.params['*']}`);
    if (file) return sendFile(request, reply, file);
    return sendError(request, reply, 404, 'no such console asset');
  });

  app.get('/app', { schema: { hide: true } }, sendPage);
  app.get<{ Params: { '*': string } }>('/app/*', { schema: { hide: true } }, async (request, reply) => {
    // Files the build puts beside index.html (an icon, a manifest) are served as they are.
    const file = request.params['*'] ? await bundle.file(request.params['*']) : undefined;
    if (file) return sendFile(request, reply, file);
    return sendPage(request, reply);
  });
}
