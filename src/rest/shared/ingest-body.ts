// Reads an ingest request's body before it takes an ingest turn, within limits that keep a
// slow or stalled client from holding anything for long: the bytes it may buffer are reserved
// from a budget shared fairly between tokens (the Content-Length at once, or chunk by chunk),
// a body that sends nothing for the idle timeout, or arrives slower than the minimum rate
// once that much time has passed, is refused with 408 and its connection closed.
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DomainError, payloadTooLarge, timedOut, unavailable } from '../../errors';
import type { FairAdmission, Grant } from '../../ingest/admission';

export interface BodyReadLimits {
  maxBytes: number;
  idleTimeoutMs: number;
  minBytesPerSecond: number;
}

/** What a body without a Content-Length reserves first, and grows by. */
const CHUNKED_STEP = 1024 * 1024;

/** Requests whose connection must close after the answer: their body was not read to the end. */
export const closeAfterAnswer = new WeakSet<FastifyRequest>();

export async function readBodyWithin(
  request: FastifyRequest,
  payload: Readable,
  budget: FairAdmission,
  key: string,
  limits: BodyReadLimits,
): Promise<{ body: Buffer; grant: Grant }> {
  const length = request.headers['content-length'];
  const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
  if (declared !== undefined && declared > limits.maxBytes) {
    closeAfterAnswer.add(request);
    throw payloadTooLarge(`request body is larger than ${limits.maxBytes} bytes`);
  }
  // A client that goes away while waiting for its reservation leaves the line.
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error('the client went away'));
  request.raw.once('close', onClose);
  let grant: Grant;
  try {
    grant = await budget.acquire(key, declared ?? Math.min(CHUNKED_STEP, limits.maxBytes), gone.signal);
  } finally {
    request.raw.off('close', onClose);
  }
  try {
    return { body: await collect(payload, grant, declared, limits), grant };
  } catch (error) {
    grant.release();
    closeAfterAnswer.add(request);
    throw error;
  }
}

function collect(payload: Readable, grant: Grant, declared: number | undefined, limits: BodyReadLimits): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const started = Date.now();
    let idle: NodeJS.Timeout;
    const finish = (error: Error | undefined, body?: Buffer) => {
      clearTimeout(idle);
      clearInterval(rate);
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      payload.off('aborted', onAborted);
      if (error) {
        payload.pause();
        reject(error);
      } else resolve(body!);
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish(timedOut(`the request body sent nothing for ${limits.idleTimeoutMs} ms; send it without pausing`)), limits.idleTimeoutMs);
    };
    let lastChunkAt = started;
    const rate = setInterval(() => {
      const now = Date.now();
      // A body that has stopped (nothing for half the idle timeout) is the idle timer's to
      // refuse, with its own reason; this tick and that timer may otherwise fire in either order.
      if (now - lastChunkAt >= limits.idleTimeoutMs / 2) return;
      const seconds = (now - started) / 1000;
      if (seconds * 1000 >= limits.idleTimeoutMs && received / seconds < limits.minBytesPerSecond) {
        finish(timedOut(`the request body arrived slower than ${limits.minBytesPerSecond} bytes per second; send it faster or in smaller requests`));
      }
    }, Math.min(1000, limits.idleTimeoutMs));
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) return finish(payloadTooLarge(`request body is larger than ${limits.maxBytes} bytes`));
      if (declared !== undefined && received > declared) return finish(new DomainError('invalid_input', 'the request body is longer than its Content-Length'));
      if (received > grant.amount && !grant.grow(Math.max(chunk.length, CHUNKED_STEP))) {
        return finish(unavailable('the server holds as many ingest bodies as it may (INGEST_BUFFER_BYTES); retry shortly'));
      }
      chunks.push(chunk);
      lastChunkAt = Date.now();
      armIdle();
    };
    const onEnd = () => finish(undefined, Buffer.concat(chunks, received));
    const onError = (error: Error) => finish(error);
    const onAborted = () => finish(new Error('the client went away'));
    payload.on('data', onData);
    payload.once('end', onEnd);
    payload.once('error', onError);
    payload.once('aborted', onAborted);
    armIdle();
  });
}
