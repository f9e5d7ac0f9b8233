// Zstandard bodies: real frames from the reference library (compiled to WebAssembly) decode to
// what was compressed; bombs and forged headers stop at the body limit; corrupt data is a 400.
import { compress, zstdReady } from '../../helpers/zstd';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { decodeBody } from '../../../src/ingest/content';
import { MAX_BODY_BYTES } from '../../../src/ingest/limits';

beforeAll(async () => {
  await zstdReady();
});

async function failure(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}: ${error.message}` : `other: ${String(error)}`;
  }
  return undefined;
}

const zstd = (data: Buffer, level = 3) => Buffer.from(compress(data, level));

describe('Content-Encoding: zstd', () => {
  const text = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, message: `line ${i}`, even: i % 2 === 0 })).join('\n');

  it('decodes a frame made by the zstd library, at several levels', async () => {
    for (const level of [1, 3, 19]) {
      const encoded = zstd(Buffer.from(text), level);
      expect(encoded.length).toBeLessThan(text.length / 3);
      expect((await decodeBody(encoded, 'zstd')).toString()).toBe(text);
    }
  });

  it('decodes frames sent back to back, and skippable frames between them', async () => {
    const skippable = Buffer.alloc(8 + 5);
    skippable.writeUInt32LE(0x184d2a53, 0);
    skippable.writeUInt32LE(5, 4);
    const body = Buffer.concat([zstd(Buffer.from('first,')), skippable, zstd(Buffer.from('second'))]);
    expect((await decodeBody(body, 'ZSTD')).toString()).toBe('first,second');
  });

  it('stops a zstd bomb at the body limit with 413', async () => {
    const bomb = zstd(Buffer.alloc(MAX_BODY_BYTES + 4096), 3);
    expect(bomb.length).toBeLessThan(100_000);
    expect(await failure(() => decodeBody(bomb, 'zstd'))).toBe(`payload_too_large: request body is larger than ${MAX_BODY_BYTES} bytes once decompressed`);
  });

  it('refuses a header asking for a window past the limit before allocating it', async () => {
    // Magic, a descriptor without single segment, window descriptor 0xF8: 2^(10+31) bytes.
    const forged = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0x01, 0x00, 0x00]);
    expect(await failure(() => decodeBody(forged, 'zstd'))).toMatch(/^payload_too_large: /);
    // Single segment with an 8-byte content size of 2^40.
    const declared = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0x00, 0x00]);
    expect(await failure(() => decodeBody(declared, 'zstd'))).toMatch(/^payload_too_large: /);
  });

  it('refuses data that is not zstd, cut short, or corrupt with 400', async () => {
    expect(await failure(() => decodeBody(Buffer.from('{"plain":"json"}'), 'zstd'))).toBe(
      'invalid_input: request body is not valid zstd data: it does not start with the zstd magic number',
    );
    const good = zstd(Buffer.from(text));
    expect(await failure(() => decodeBody(good.subarray(0, good.length - 10), 'zstd'))).toMatch(/^invalid_input: request body is not valid zstd data/);
    const corrupt = Buffer.from(good);
    for (let i = 20; i < corrupt.length - 8; i += 7) corrupt[i] = corrupt[i]! ^ 0x5a;
    expect(await failure(() => decodeBody(corrupt, 'zstd'))).toMatch(/^invalid_input: request body is not valid zstd data/);
  });
});
