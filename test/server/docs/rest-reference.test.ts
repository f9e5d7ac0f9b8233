// docs/reference/rest.md lists the REST route groups by their tag in /openapi.json: every tag the
// server describes must appear there, so a new area of the API gets its line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { REPO_ROOT } from '../../helpers/docs/snippets';

describe('docs/reference/rest.md', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('names every tag of /openapi.json', async () => {
    const response = await server.request('/openapi.json', { auth: false });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const tags = new Set(Object.values(document.paths).flatMap((operations) => Object.values(operations).flatMap((operation) => operation.tags ?? [])));
    expect(tags.size).toBeGreaterThan(10);
    const page = readFileSync(path.join(REPO_ROOT, 'docs/reference/rest.md'), 'utf8');
    expect([...tags].filter((tag) => !page.includes(`\`${tag}\``))).toEqual([]);
  });
});
