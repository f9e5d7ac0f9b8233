// Zstandard request bodies (Vector and other shippers send `Content-Encoding: zstd`). Node 20
// has no zstd in zlib, so fzstd decodes; this file bounds what it may produce. Before anything is
// decoded, every frame's header is read to refuse windows larger than the body limit (a decoder
// allocates its window up front, so a forged header alone could ask for gigabytes); while
// decoding, output is counted block by block and decoding stops as soon as it passes the limit.
import { Decompress } from 'fzstd';
import { DomainError, invalidInput, payloadTooLarge } from '../errors';

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const BLOCK_HEADER_BYTES = 3;
const CHECKSUM_BYTES = 4;

function notZstd(reason: string): Error {
  return invalidInput(`request body is not valid zstd data: ${reason}`);
}

function tooLarge(limit: number): Error {
  return payloadTooLarge(`request body is larger than ${limit} bytes once decompressed`);
}

/** Window size a frame needs (RFC 8878 section 3.1.1.1), or throws when its header is cut short. */
function windowSizeOf(body: Buffer, at: number): { window: number; headerEnd: number } {
  if (at + 5 > body.length) throw notZstd('a frame header is cut short');
  const descriptor = body[at + 4]!;
  const singleSegment = (descriptor >> 5) & 1;
  const contentSizeFlag = descriptor >> 6;
  const dictionaryFlag = descriptor & 3;
  if (descriptor & 8) throw notZstd('a frame header sets a reserved bit');
  let position = at + 5;
  let window = 0;
  if (!singleSegment) {
    const windowDescriptor = body[position++];
    if (windowDescriptor === undefined) throw notZstd('a frame header is cut short');
    const base = 2 ** (10 + (windowDescriptor >> 3));
    window = base + (base / 8) * (windowDescriptor & 7);
  }
  position += dictionaryFlag === 3 ? 4 : dictionaryFlag;
  const contentSizeBytes = contentSizeFlag === 0 ? singleSegment : 1 << contentSizeFlag;
  if (position + contentSizeBytes > body.length) throw notZstd('a frame header is cut short');
  if (singleSegment) {
    // The window is the content size itself.
    let size = 0;
    for (let i = contentSizeBytes - 1; i >= 0; i--) size = size * 256 + body[position + i]!;
    window = contentSizeBytes === 2 ? size + 256 : size;
  }
  return { window, headerEnd: position + contentSizeBytes };
}

/** Walks the frames of a body, checking each frame's window against the limit. */
function checkFrames(body: Buffer, limit: number): void {
  let at = 0;
  while (at < body.length) {
    if (at + 4 > body.length) throw notZstd('trailing bytes after the last frame');
    const magic = body.readUInt32LE(at);
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (at + 8 > body.length) throw notZstd('a skippable frame is cut short');
      at += 8 + body.readUInt32LE(at + 4);
      continue;
    }
    if (magic !== FRAME_MAGIC) throw notZstd(at === 0 ? 'it does not start with the zstd magic number' : 'trailing bytes after the last frame');
    const { window, headerEnd } = windowSizeOf(body, at);
    if (window > limit) throw tooLarge(limit);
    const hasChecksum = (body[at + 4]! >> 2) & 1;
    at = headerEnd;
    for (;;) {
      if (at + BLOCK_HEADER_BYTES > body.length) throw notZstd('a block is cut short');
      const header = body[at]! | (body[at + 1]! << 8) | (body[at + 2]! << 16);
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw notZstd('a block has the reserved type');
      at += BLOCK_HEADER_BYTES + (type === 1 ? 1 : size);
      if (last) break;
    }
    at += hasChecksum ? CHECKSUM_BYTES : 0;
    if (at > body.length) throw notZstd('a frame is cut short');
  }
}

/** Decodes a zstd body (one or more frames), refusing output past `limit` bytes. */
export function decompressZstd(body: Buffer, limit: number): Buffer {
  if (body.length === 0) return body;
  checkFrames(body, limit);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const decoder = new Decompress((chunk) => {
    total += chunk.length;
    if (total > limit) throw tooLarge(limit);
    if (chunk.length > 0) chunks.push(chunk);
  });
  try {
    decoder.push(body, true);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof RangeError) throw tooLarge(limit);
    // Anything else the decoder trips over is a property of the bytes it was given.
    throw notZstd(error instanceof Error ? error.message : String(error));
  }
  return Buffer.concat(chunks, total);
}
