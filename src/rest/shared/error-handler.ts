// Turns every failure on a REST route into `{"error": "..."}` with the status from the shared
// domain mapping (or a CSV body when the request asked for CSV), including Fastify's own
// failures: bad JSON, bodies over the limit, unknown media types, unknown routes.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../../errors';
import { csvRow } from './csv';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by routes that honour `format=csv`, so errors answer in the format that was asked. */
    errorFormat: 'json' | 'csv';
    /** 'axiom' adds Axiom's `message` and `code` beside `error`, for official clients. */
    errorStyle: 'plain' | 'axiom';
  }
}

/** Fastify's own error codes that are the client's fault, and how to say so. */
export function describeFrameworkError(error: FastifyError): { status: number; message: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'request body is too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: `unsupported content type` };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: `request body is not valid JSON: ${error.message}` };
    case 'FST_ERR_VALIDATION':
      return { status: 400, message: error.message };
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return { status: error.statusCode, message: error.message };
      }
      return undefined;
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string, details?: object) {
  reply.status(status);
  if (request.errorFormat === 'csv') {
    return reply.type('text/csv; charset=utf-8').send(`${csvRow(['error'])}\n${csvRow([message])}\n`);
  }
  const axiomFields = request.errorStyle === 'axiom' ? { message, code: status } : {};
  return reply.type('application/json; charset=utf-8').send({ error: message, ...axiomFields, ...details });
}

export function registerErrorHandling(app: FastifyInstance) {
  app.decorateRequest('errorFormat', 'json');
  app.decorateRequest('errorStyle', 'plain');

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const framework = describeFrameworkError(error);
    if (framework) return sendError(request, reply, framework.status, framework.message);
    const description = describeError(error);
    if (!description.expected) request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, description.status, description.message, description.details);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, `no route for ${request.method} ${request.url.split('?')[0]}`),
  );
}
