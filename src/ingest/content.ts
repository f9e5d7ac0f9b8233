// Which body format a request carries, and how to undo its Content-Encoding.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { invalidInput, payloadTooLarge, unsupportedMediaType } from '../errors';
import { MAX_BODY_BYTES } from './limits';
import { decompressZstd } from './zstd';

export type BodyFormat = 'json' | 'ndjson' | 'csv';

const FORMAT_OF_MEDIA_TYPE: Record<string, BodyFormat> = {
  'application/json': 'json',
  'application/x-ndjson': 'ndjson',
  'application/nd-json': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/x-json-stream': 'ndjson',
  'text/csv': 'csv',
};

export const SUPPORTED_MEDIA_TYPES = Object.keys(FORMAT_OF_MEDIA_TYPE);

/** The media type without parameters, lower-cased ("Application/JSON; charset=utf-8" -> "application/json"). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function bodyFormatOf(contentType: string | undefined): BodyFormat {
  const mediaType = mediaTypeOf(contentType);
  const format = FORMAT_OF_MEDIA_TYPE[mediaType];
  if (!format) {
    throw unsupportedMediaType(
      `unsupported content type ${mediaType ? `"${mediaType}"` : '(none)'}: send application/json, application/x-ndjson or text/csv`,
    );
  }
  return format;
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);

function isOutputTooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
}

async function undo(encoding: string, body: Buffer): Promise<Buffer> {
  // The output grows chunk by chunk up to the body limit, where inflating stops. Chunks scale
  // with the input: zlib's default 16 KiB makes a highly compressed body cost seconds of copying.
  const chunkSize = Math.min(4 * 1024 * 1024, Math.max(64 * 1024, body.length * 16));
  const options = { maxOutputLength: MAX_BODY_BYTES, chunkSize };
  try {
    switch (encoding) {
      case 'gzip':
      case 'x-gzip':
        return await gunzip(body, options);
      case 'deflate':
        // RFC 9110 deflate is zlib-wrapped; some clients send raw deflate, so accept both.
        return body[0] !== undefined && (body[0] & 0x0f) === 8 && ((body[0] << 8) | (body[1] ?? 0)) % 31 === 0
          ? await inflate(body, options)
          : await inflateRaw(body, options);
      case 'zstd':
        return decompressZstd(body, MAX_BODY_BYTES);
      default:
        throw unsupportedMediaType(`unsupported content encoding "${encoding}": send gzip, zstd, deflate or identity`);
    }
  } catch (error) {
    if (isOutputTooLarge(error)) throw payloadTooLarge(`request body is larger than ${MAX_BODY_BYTES} bytes once decompressed`);
    if ((error as { code?: string }).code?.startsWith('Z_')) {
      throw invalidInput(`request body is not valid ${encoding} data: ${(error as Error).message}`);
    }
    throw error;
  }
}

/** Decodes a body per its Content-Encoding (a comma list, applied in order, so undone in reverse). */
export async function decodeBody(body: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'identity');
  let decoded = body;
  for (const encoding of encodings.reverse()) decoded = await undo(encoding, decoded);
  return decoded;
}
