// Who may use the MCP endpoint and what they see: a token limited to one dataset cannot see or
// query another through any tool; no token is 401 with WWW-Authenticate, a foreign Origin 403,
// GET and DELETE 405; the organization comes from the header or ?org-id=; tool calls are rate
// limited per token with an error that says when to try again; a call its client cancels, or
// whose connection closes, stops its query.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMetrics } from '../../helpers/docs/metrics-fixture';
import { callTool, mcpClient, postMcp, type ToolOutcome } from '../../helpers/mcp';
import { startTestServer, type TestServer } from '../../helpers/server';
import { adminOrg, apiToken } from '../../helpers/teams';

const CALLS_PER_MINUTE = 40;
let server: TestServer;
let limited: Client;
let limitedToken: string;
let orgId: string;
let secretMonitorId: string;

const post = (path: string, body: unknown) => server.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
async function ok(response: Promise<Response>) {
  const answer = await response;
  expect(answer.status, await answer.clone().text()).toBe(200);
  return answer.json() as Promise<any>;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

beforeAll(async () => {
  server = await startTestServer({ MCP_TOOL_CALLS_PER_MINUTE: String(CALLS_PER_MINUTE) });
  orgId = await adminOrg(server);
  for (const name of ['open', 'secret']) await ok(post('/v2/datasets', { name }));
  const now = Date.now();
  await ok(post('/v1/datasets/open/ingest', [{ _time: new Date(now - 60_000).toISOString(), message: 'visible' }]));
  await ok(
    post('/v1/datasets/secret/ingest', [
      { _time: new Date(now - 60_000).toISOString(), message: 'hidden', attributes: { gen_ai: { request: { model: 'gpt-4o' }, usage: { input_tokens: 5, output_tokens: 5 } } } },
    ]),
  );
  await prepareMetrics(server);
  await ok(post('/v2/apl-starred-queries', { name: 'Secret query', dataset: 'secret', query: { apl: "['secret'] | count" } }));
  await ok(post('/v2/apl-starred-queries', { name: 'Open query', dataset: 'open', query: { apl: "['open'] | count" } }));
  secretMonitorId = (await ok(post('/v2/monitors', { name: 'Secret monitor', type: 'Threshold', aplQuery: "['secret'] | summarize count()", operator: 'Above', threshold: 100, intervalMinutes: 60, disabled: true }))).id;
  await ok(post('/v2/monitors', { name: 'Open monitor', type: 'Threshold', aplQuery: "['open'] | summarize count()", operator: 'Above', threshold: 100, intervalMinutes: 60, disabled: true }));
  limitedToken = await apiToken(server, {
    datasetCapabilities: { open: { query: ['read'], starredQueries: ['read'] } },
    orgCapabilities: { monitors: ['read'] },
  });
  limited = await mcpClient(server, limitedToken);
}, 60_000);

afterAll(async () => {
  await limited?.close();
  await server?.close();
});

describe('MCP access', () => {
  it('keeps a token limited to one dataset away from every other through every tool', async () => {
    const listed = await callTool(limited, 'listDatasets');
    expect(listed.structured.datasets.map((d: any) => d.name)).toEqual(['open']);
    expect(listed.text).not.toContain('secret');

    const refused: [string, Record<string, unknown>][] = [
      ['getDatasetSchema', { dataset: 'secret', sample: true }],
      ['queryApl', { apl: "['secret'] | project message" }],
      ['queryApl', { apl: "union ['open'], ['secret'] | project message" }],
      ['getSavedQueries', { dataset: 'secret' }],
      ['getMonitorHistory', { monitorId: secretMonitorId }],
      ['listMetrics', { dataset: 'otel-metrics' }],
      ['listMetricTags', { dataset: 'otel-metrics' }],
      ['getMetricTagValues', { dataset: 'otel-metrics', tag: 'http.route' }],
      ['queryMetrics', { mpl: '`otel-metrics`:`cpu` | align to 5m using max' }],
      ['getLlmUsage', { dataset: 'secret', startTime: 'now-1h' }],
    ];
    for (const [tool, args] of refused) {
      const outcome = await callTool(limited, tool, args);
      expect(outcome.isError, `${tool} ${JSON.stringify(args)}: ${outcome.text}`).toBe(true);
      expect(outcome.text, tool).not.toContain('hidden');
    }
    const unioned = await callTool(limited, 'queryApl', { apl: "union ['*'] | project message" });
    expect(unioned.text).not.toContain('hidden');
    const validated = await callTool(limited, 'validateApl', { apl: "['secret'] | count" });
    expect(validated.structured.valid).toBe(false);

    const saved = await callTool(limited, 'getSavedQueries', {});
    expect(saved.structured.queries.map((q: any) => q.name)).toEqual(['Open query']);
    const monitors = await callTool(limited, 'checkMonitors', {});
    expect(monitors.structured.monitors.map((m: any) => m.name)).toEqual(['Open monitor']);

    const mine = await callTool(limited, 'queryApl', { apl: "['open'] | project message", startTime: 'now-1h' });
    expect(mine.structured.rows).toEqual([['visible']]);
    // The catalog is no dataset: pricing works whatever datasets the token holds.
    const estimate = await callTool(limited, 'estimateLlmCost', { model: 'gpt-4o', inputTokens: 1_000_000, outputTokens: 0 });
    expect(estimate.isError, estimate.text).toBe(false);
    expect(estimate.structured.costUsd).toBeGreaterThan(0);
  });

  it('answers 401 without a token or with a bad one, saying how to authenticate', async () => {
    const none = await postMcp(server, INITIALIZE, {}, false);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await none.json()).error.message).toMatch(/Authorization/);
    const wrong = await postMcp(server, INITIALIZE, {}, 'xapt-not-a-token');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
    // No OAuth metadata is advertised while only bearer tokens work.
    expect((await server.request('/.well-known/oauth-protected-resource', { auth: false })).status).toBe(404);
  });

  it('refuses foreign origins, accepts its own, and has no stream for GET or DELETE', async () => {
    const foreign = await postMcp(server, INITIALIZE, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const own = await postMcp(server, INITIALIZE, { origin: server.url });
    expect(own.status).toBe(200);
    expect((await own.json()).result.serverInfo.name).toBe('eventdeck');
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { authorization: `Bearer ${server.adminToken}`, accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('takes the organization from X-Axiom-Org-Id or ?org-id=', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const byQuery = await fetch(`${server.url}/mcp?org-id=${orgId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${server.adminToken}` },
      body: list,
    });
    expect(byQuery.status).toBe(200);
    const elsewhere = await postMcp(server, list, { 'x-axiom-org-id': 'no-such-org' });
    expect(elsewhere.status).toBe(403);
    const viaHeader = await mcpClient(server, server.adminToken, { 'x-axiom-org-id': orgId });
    expect((await callTool(viaHeader, 'listDatasets')).structured.datasets.map((d: any) => d.name).sort()).toEqual(['open', 'otel-metrics', 'secret']);
    await viaHeader.close();
  });

  it('stops the query of a call its client cancels or walks away from', async () => {
    const { queries } = server.app.services;
    const reasons: string[] = [];
    let started: () => void = () => undefined;
    // The query service as a query that never ends by itself: it reports why it was stopped.
    queries.apl = ((_principal: unknown, _body: unknown, overrides?: { signal?: AbortSignal }) =>
      new Promise((_resolve, reject) => {
        started();
        overrides?.signal?.addEventListener('abort', () => {
          reasons.push(String((overrides.signal!.reason as Error)?.message));
          reject(overrides.signal!.reason);
        });
      })) as unknown as typeof queries.apl;
    const until = async (done: () => boolean) => {
      for (let waited = 0; !done(); waited += 20) {
        if (waited > 10_000) throw new Error('the query was never stopped');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      const cancel = new AbortController();
      const running = new Promise<void>((resolve) => (started = resolve));
      const call = limited.callTool({ name: 'queryApl', arguments: { apl: "['open'] | count" } }, undefined, { signal: cancel.signal });
      await running;
      cancel.abort('no longer needed');
      await expect(call).rejects.toThrow();
      await until(() => reasons.length === 1);
      expect(reasons[0]).toMatch(/cancelled by its client/);

      const leave = new AbortController();
      const runningAgain = new Promise<void>((resolve) => (started = resolve));
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'queryApl', arguments: { apl: "['open'] | count" } } });
      const pending = postMcp(server, body, {}, limitedToken, leave.signal).catch(() => undefined);
      await runningAgain;
      leave.abort();
      await pending;
      await until(() => reasons.length === 2);
      expect(reasons[1]).toMatch(/caller went away/);
    } finally {
      delete (queries as { apl?: unknown }).apl;
    }
    expect((await callTool(limited, 'queryApl', { apl: "['open'] | count", startTime: 'now-1h' })).structured.rows).toEqual([[1]]);
  });

  it('rate limits tool calls per token with a clear error', async () => {
    const token = await apiToken(server, { datasetCapabilities: { open: { query: ['read'] } } });
    const client = await mcpClient(server, token);
    // The bucket refills while the calls run (two thirds of a call a second here), so a slow
    // machine needs a few calls more than the burst to empty it; twice the burst does unless each
    // call takes over a second and a half.
    let refused: ToolOutcome | undefined;
    let calls = 0;
    while (!refused && calls < 2 * CALLS_PER_MINUTE) {
      const outcome = await callTool(client, 'aplReference', { search: 'where' });
      calls++;
      if (outcome.isError) refused = outcome;
    }
    expect(calls).toBeGreaterThan(CALLS_PER_MINUTE);
    expect(refused?.text).toMatch(/rate limited: .*40 tool calls a minute; try again in \d+ s/);
    // Another token is not held back by it.
    expect((await callTool(limited, 'aplReference', { search: 'where' })).isError).toBe(false);
    await client.close();
  });
});
