// Posts a notification to a receiver over HTTP(S) with node's own client: a time limit, a
// bounded read of the answer, and, under NOTIFIER_DENY_PRIVATE, a DNS lookup that refuses
// internal addresses at connection time. Errors name the host, never the full URL (webhook
// URLs often carry their secret in the path).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress, isPrivateHostLiteral } from './address-guard';

export interface HttpResult {
  status: number;
  /** The start of the answer's body (for the delivery log). */
  body: string;
}

export interface PostOptions {
  headers?: Record<string, string>;
  denyPrivate: boolean;
  timeoutMs?: number;
}

/** A failure that trying again may fix (network errors, time-outs). */
export class TransientDeliveryError extends Error {
  override name = 'TransientDeliveryError';
}

/** A failure that trying again will not fix (refused target, bad URL). */
export class PermanentDeliveryError extends Error {
  override name = 'PermanentDeliveryError';
}

const USER_AGENT = 'eventdeck-notifier/1.0';
const MAX_ANSWER_BYTES = 2048;

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const allowed = list.filter((entry) => !isPrivateAddress(entry.address));
    if (allowed.length === 0) {
      const refused = Object.assign(new Error(`${hostname} resolves to a loopback or private address, which NOTIFIER_DENY_PRIVATE refuses`), {
        code: 'EPRIVATE',
      });
      return callback(refused, '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

export async function postJson(target: string, body: string, options: PostOptions): Promise<HttpResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new PermanentDeliveryError('the notifier URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PermanentDeliveryError('the notifier URL is not http or https');
  if (options.denyPrivate && isPrivateHostLiteral(url.hostname)) {
    throw new PermanentDeliveryError(`${url.hostname} is a loopback or private address, which NOTIFIER_DENY_PRIVATE refuses`);
  }
  const client = url.protocol === 'https:' ? https : http;
  const payload = Buffer.from(body);
  return new Promise<HttpResult>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          ...options.headers,
          'content-length': String(payload.length),
        },
        timeout: options.timeoutMs ?? 10_000,
        ...(options.denyPrivate ? { lookup: guardedLookup } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES) }),
        );
        response.on('error', (error) => reject(new TransientDeliveryError(`reading the answer of ${url.host} failed: ${error.message}`)));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPRIVATE') reject(new PermanentDeliveryError(error.message));
      else reject(new TransientDeliveryError(`posting to ${url.host} failed: ${error.code ?? error.message}`));
    });
    request.end(payload);
  });
}
