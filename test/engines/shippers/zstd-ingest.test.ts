// Vector and other shippers send `Content-Encoding: zstd` to the ingest API: real zstd frames are
// read, and a zstd bomb is refused at the body limit with nothing stored.
import { compress, zstdReady } from '../../helpers/zstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/ingest/limits';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apl, countOf, createDataset } from '../../helpers/shippers/helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await zstdReady();
});
afterAll(() => server.close());

const zstd = (text: string | Buffer) => Buffer.from(compress(Buffer.isBuffer(text) ? text : Buffer.from(text), 3));

describe('Content-Encoding: zstd on the ingest API', () => {
  it('stores NDJSON compressed with zstd, on every ingest path', async () => {
    const dataset = await createDataset(server, 'vector');
    const lines = ['{"_time":"2024-05-01T00:00:00Z","host":"a","bytes":10}', '{"_time":"2024-05-01T00:00:01Z","host":"b","bytes":20}'].join('\n');
    for (const path of [`/v1/datasets/${dataset}/ingest`, `/v1/ingest/${dataset}`, `/api/v1/ingest?dataset=${dataset}`]) {
      const response = await server.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'zstd' },
        body: zstd(lines),
      });
      const status = (await response.json()) as any;
      expect(response.status, path).toBe(200);
      expect(status).toMatchObject({ ingested: 2, failed: 0, processedBytes: Buffer.byteLength(lines) });
    }
    const { rows } = await apl(server, `['vector'] | summarize n = count(), total = sum(bytes) by host | sort by host asc`);
    expect(rows).toEqual([
      { host: 'a', n: 3, total: 30 },
      { host: 'b', n: 3, total: 60 },
    ]);
  });

  it('refuses a zstd bomb with 413 and corrupt zstd with 400, storing nothing', async () => {
    const dataset = await createDataset(server, 'vector-bad');
    const bomb = zstd(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20));
    const refused = await server.request(`/v1/datasets/${dataset}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'zstd' },
      body: bomb,
    });
    expect(refused.status).toBe(413);
    const corrupt = await server.request(`/v1/datasets/${dataset}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'zstd' },
      body: Buffer.from('{"not":"zstd"}'),
    });
    expect(corrupt.status).toBe(400);
    expect(((await corrupt.json()) as any).message).toMatch(/not valid zstd/);
    expect(await countOf(server, dataset)).toBe(0);
  });
});
