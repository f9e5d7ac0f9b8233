import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { bodyFormatOf, decodeBody } from '../../../src/ingest/content';
import { MAX_BODY_BYTES } from '../../../src/ingest/limits';

async function failure(run: () => Promise<unknown> | unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}: ${error.message}` : `other: ${String(error)}`;
  }
  return undefined;
}

describe('content types', () => {
  it('maps each accepted media type to its format, ignoring case and parameters', () => {
    expect(bodyFormatOf('application/json')).toBe('json');
    expect(bodyFormatOf('Application/JSON; charset=utf-8')).toBe('json');
    expect(bodyFormatOf('application/x-ndjson')).toBe('ndjson');
    expect(bodyFormatOf('application/nd-json')).toBe('ndjson');
    expect(bodyFormatOf('text/csv; header=present')).toBe('csv');
  });

  it('refuses other media types with 415', async () => {
    expect(await failure(() => bodyFormatOf('text/plain'))).toBe(
      'unsupported_media_type: unsupported content type "text/plain": send application/json, application/x-ndjson or text/csv',
    );
    expect(await failure(() => bodyFormatOf(undefined))).toMatch(/^unsupported_media_type: unsupported content type \(none\)/);
  });
});

describe('content encodings', () => {
  const text = '{"message":"hello"}\n'.repeat(100);
  const plain = Buffer.from(text);

  it('passes identity bodies through (no header, empty, or "identity")', async () => {
    expect((await decodeBody(plain, undefined)).toString()).toBe(text);
    expect((await decodeBody(plain, '')).toString()).toBe(text);
    expect((await decodeBody(plain, 'identity')).toString()).toBe(text);
  });

  it('gunzips gzip and x-gzip', async () => {
    expect((await decodeBody(zlib.gzipSync(plain), 'gzip')).toString()).toBe(text);
    expect((await decodeBody(zlib.gzipSync(plain), 'X-GZIP')).toString()).toBe(text);
  });

  it('inflates deflate, zlib-wrapped as HTTP specifies or raw as some clients send', async () => {
    expect((await decodeBody(zlib.deflateSync(plain), 'deflate')).toString()).toBe(text);
    expect((await decodeBody(zlib.deflateRawSync(plain), 'deflate')).toString()).toBe(text);
  });

  it('undoes stacked encodings in reverse order', async () => {
    const twice = zlib.deflateSync(zlib.gzipSync(plain));
    expect((await decodeBody(twice, 'gzip, deflate')).toString()).toBe(text);
  });

  it('refuses unknown encodings with 415 and corrupt data with 400', async () => {
    expect(await failure(() => decodeBody(plain, 'br'))).toBe('unsupported_media_type: unsupported content encoding "br": send gzip, zstd, deflate or identity');
    expect(await failure(() => decodeBody(plain, 'gzip'))).toMatch(/^invalid_input: request body is not valid gzip data/);
  });

  it('stops decompressing past the body limit (413)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1024));
    expect(bomb.length).toBeLessThan(1_000_000);
    expect(await failure(() => decodeBody(bomb, 'gzip'))).toMatch(/^payload_too_large: request body is larger than/);
  });
});
