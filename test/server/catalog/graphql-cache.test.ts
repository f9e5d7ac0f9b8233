// The byte cache in front of Yoga for public catalog queries: only catalog-only queries are
// replayed, answers follow the catalog version, and request headers that change an answer
// (Accept, Origin) keep answers apart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCatalogOnlyQuery } from '../../../src/graphql/server/catalog-cache';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('isCatalogOnlyQuery', () => {
  it.each([
    ['{ models { totalCount } }', undefined, true],
    ['{ __typename model(id: "x") { modelId } catalogMetadata { modelCount } }', undefined, true],
    ['query A { providers { totalCount } } query B { viewer { name } }', 'A', true],
    ['query A { providers { totalCount } } query B { viewer { name } }', 'B', false],
    ['{ models { totalCount } viewer { name } }', undefined, false],
    ['{ node(id: "x") { id } }', undefined, false],
    ['{ ...F } fragment F on Query { models { totalCount } }', undefined, false],
    ['{ models @include(if: true) { totalCount } }', undefined, false],
    ['mutation { deleteDataset(name: "x") }', undefined, false],
  ])('%s (%s) → %s', (document, operationName, expected) => {
    expect(isCatalogOnlyQuery(parse(document), operationName)).toBe(expected);
  });
});

describe('GraphQL catalog answers', () => {
  let server: TestServer;
  let work: string;
  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(path.join(tmpdir(), 'catalog-gql-cache-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    server.request('/graphql', { method: 'POST', auth: false, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers a repeated query with the same bytes and headers, without executing it again', async () => {
    const { catalog } = server.app.services;
    let executions = 0;
    const listModels = catalog.listModels.bind(catalog);
    catalog.listModels = (filter) => {
      executions++;
      return listModels(filter);
    };
    try {
      const body = { query: '{ models(first: 2) { edges { node { modelId } } } }' };
      const first = await post(body);
      const second = await post(body);
      expect(second.status).toBe(200);
      expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(await second.text()).toBe(await first.text());
      expect(executions).toBe(1);
      await post({ ...body, variables: { unused: 1 } });
      expect(executions).toBe(2);
    } finally {
      catalog.listModels = listModels;
    }
  });

  it('never replays queries that read more than the catalog', async () => {
    const query = '{ models(first: 1) { totalCount } viewer { email } }';
    const withToken = await server.graphql(query, undefined, server.adminToken);
    expect(withToken.data?.viewer).toBeTruthy();
    const anonymous = await server.graphql(query, undefined, false);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('follows the catalog version: a sync changes the next answer', async () => {
    const query = '{ models { totalCount } catalogMetadata { modelCount source } }';
    const before = await server.graphql(query, undefined, false);
    expect(before.data.models.totalCount).toBe(26);
    const source = path.join(work, 'one.json');
    writeFileSync(source, JSON.stringify({ 'xai/grok-9': { litellm_provider: 'xai' } }));
    await server.app.services.catalog.sync({ kind: 'litellm', source });
    const after = await server.graphql(query, undefined, false);
    expect(after.data).toEqual({ models: { totalCount: 1 }, catalogMetadata: { modelCount: 1, source } });
  });

  it('keeps answers for different Accept headers apart', async () => {
    const body = { query: '{ catalogMetadata { modelCount } }' };
    const plain = await post(body, { accept: 'application/json' });
    const graphqlJson = await post(body, { accept: 'application/graphql-response+json' });
    const plainAgain = await post(body, { accept: 'application/json' });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(graphqlJson.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(plainAgain.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('does not keep answers with errors', async () => {
    const body = { query: '{ models(first: -1) { totalCount } }' };
    for (let i = 0; i < 2; i++) {
      const result = (await (await post(body)).json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});
