// Reads request headers as the credential and ingest parsers want them: one value per name.
import type { FastifyRequest } from 'fastify';

/** A reader of `request`'s headers by lower-case name; a repeated header gives its first value. */
export function headerReader(request: FastifyRequest) {
  return (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
}
