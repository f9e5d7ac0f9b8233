// Compresses API answers (br or gzip, as the client accepts) once they pass a kilobyte. Brotli
// runs at quality 4, which compresses JSON nearly as well as gzip -9 at a fraction of the time.
// Left alone: event streams (each event must reach the client when it is sent, a compressor
// would hold it back), bodies that already carry a Content-Encoding, and request bodies (the
// ingest doors undo their own Content-Encoding within their limits).
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|csv|x-ndjson|graphql-response\+json)\b|image\/svg\+xml)/i;

export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    customTypes: (contentType: string) => COMPRESSIBLE.test(contentType),
  });
}
