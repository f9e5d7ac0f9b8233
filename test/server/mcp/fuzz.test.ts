// The MCP endpoint under hostile input: malformed JSON-RPC answers a 4xx (never a 5xx) and the
// server keeps serving; every tool, called with arguments drawn from a pool of wrong types,
// oversized, injected and nonsense values, answers a result or a tool error with a message, never
// a protocol failure or a server-side crash.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMetrics } from '../../helpers/docs/metrics-fixture';
import { callTool, mcpClient, postMcp } from '../../helpers/mcp';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ MCP_TOOL_CALLS_PER_MINUTE: '100000' });
  const created = await server.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'fuzz' }) });
  expect(created.status).toBe(200);
  const events = Array.from({ length: 20 }, (_, i) => ({ _time: new Date(Date.now() - i * 1000).toISOString(), n: i, text: `event ${i}` }));
  const ingested = await server.request('/v1/datasets/fuzz/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(events) });
  expect(ingested.status).toBe(200);
  await prepareMetrics(server);
  client = await mcpClient(server, server.adminToken);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

/** Argument sets tried per tool. */
const ROUNDS = 8;

const deep = (depth: number): unknown => (depth === 0 ? 1 : { a: deep(depth - 1) });

describe('MCP fuzzing', () => {
  it('answers malformed JSON-RPC with a 4xx and keeps serving', async () => {
    const bodies = [
      '{',
      '',
      'null',
      '"text"',
      '42',
      '[]',
      '{}',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":{"nested":true},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"queryApl","arguments":"not an object"}}',
      '{"jsonrpc":"2.0","id":1,"method":"no/such/method"}',
      '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'queryApl', arguments: deep(500) } }),
      // Prototype poisoning is refused before any tool sees it.
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getModelPrice","arguments":{"__proto__":{"polluted":true},"model":"x"}}}',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'queryApl', arguments: { apl: 'x'.repeat(3_000_000) } } }),
    ];
    for (const body of bodies) {
      const response = await postMcp(server, body);
      const text = await response.text();
      expect(response.status, `${body.slice(0, 80)} → ${text.slice(0, 200)}`).toBeLessThan(500);
      if (response.status >= 400) expect(text, body.slice(0, 80)).toMatch(/"error"/);
    }
    const wrongType = await postMcp(server, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBeGreaterThanOrEqual(400);
    expect(wrongType.status).toBeLessThan(500);
    const noAccept = await postMcp(server, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { accept: 'text/html' });
    expect(noAccept.status).toBe(406);
    expect((await callTool(client, 'listDatasets')).isError).toBe(false);
  });

  it('answers hostile tool arguments with results or tool errors, never a crash', async () => {
    const pool: unknown[] = [
      '',
      ' ',
      'fuzz',
      "['fuzz'] | take 1",
      "['fuzz'",
      "fuzz'] | project n; drop table datasets; --",
      "'); DROP TABLE datasets; --",
      '`otel-metrics`:`cpu`',
      '../../../etc/passwd',
      '\u0000\u0001\u0002',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 😀',
      '%s%n%x',
      'now-99999999999d',
      '9999-99-99T99:99:99Z',
      'x'.repeat(120_000),
      '\\',
      "'",
      -1,
      0,
      3.5,
      1e308,
      Number.MAX_SAFE_INTEGER,
      true,
      null,
      [],
      ['model', 'model', 'nonsense'],
      {},
      { model: ['"], x', '\n'], inputTokens: "'" },
    ];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = () => pool[Math.floor(random() * pool.length)];
    const { tools } = await client.listTools();
    let calls = 0;
    for (const tool of tools) {
      const names = Object.keys(tool.inputSchema.properties ?? {});
      for (let round = 0; round < ROUNDS; round++) {
        const args: Record<string, unknown> = {};
        for (const name of names) if (random() < 0.8) args[name] = pick();
        if (round === 0) args.extra = 'unexpected';
        const outcome = await callTool(client, tool.name, args);
        calls++;
        expect(outcome.text, `${tool.name} ${JSON.stringify(args).slice(0, 200)}`).not.toMatch(/failed on the server|internal server error/i);
        if (outcome.isError) expect(outcome.text.length, tool.name).toBeGreaterThan(0);
      }
    }
    expect(calls).toBe(tools.length * ROUNDS);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const after = await callTool(client, 'queryApl', { apl: "['fuzz'] | count", startTime: 'now-1h' });
    expect(after.structured.rows).toEqual([[20]]);
  }, 50_000);
});
