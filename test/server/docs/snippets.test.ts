// The docs' runnable snippets (blocks marked `<!-- test -->`, see snippets.ts) run against a
// test server, one fresh server per Markdown file, in the order a reader meets them: one bash
// process runs the file's shell blocks (so a block may use what an earlier one defined), posts
// each GraphQL block to /graphql and each query of a kusto block to /v1/datasets/_apl (over the
// last 30 days) with the admin token where it stands. Every curl must answer 2xx without GraphQL
// errors. In the snippets, http://127.0.0.1:8080 becomes the test server's
// address, $TOKEN is the admin token, and `xapt-...` stands for it too. Needs bash, curl and jq
// (skipped without them, except in CI).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { prepareMetrics } from '../../helpers/docs/metrics-fixture';
import { aplQueries, markdownFiles, runnableSnippets, type Snippet } from '../../helpers/docs/snippets';

/** Datasets (and events) a file's snippets expect to exist, as a reader's server would have them. */
interface Fixture {
  datasets?: { name: string }[];
  events?: Record<string, Record<string, unknown>[]>;
  /** Anything else to prepare. */
  setup?: (server: TestServer) => Promise<void>;
  /** Runs the GraphQL blocks before the shell ones (when the shell blocks change who the token acts for). */
  graphqlFirst?: boolean;
}

const now = Date.now();
const webLogs = Array.from({ length: 20 }, (_, i) => ({
  _time: new Date(now - i * 60_000).toISOString(),
  status: i % 5 === 0 ? 503 : 200,
  uri: i % 2 === 0 ? '/api/users' : '/pay/checkout',
  method: i % 3 === 0 ? 'POST' : 'GET',
  duration: 10 + i,
  resp_bytes: 2048 * (i + 1),
  service: i % 2 === 0 ? 'api' : 'web',
  user: `user-${i % 4}`,
}));
const llmCalls = Array.from({ length: 6 }, (_, i) => ({
  _time: new Date(now - i * 3_600_000).toISOString(),
  model: i % 2 === 0 ? 'gpt-4o' : 'claude-3-opus-20240229',
  input_tokens: 1000 + i,
  output_tokens: 200 + i,
  cache_read_tokens: 100,
  conversation_id: `c${i % 3}`,
}));

const genAiSpans = llmCalls.map((call) => ({
  _time: call._time,
  name: 'chat',
  'service.name': 'assistant',
  attributes: {
    gen_ai: {
      operation: { name: 'chat' },
      request: { model: call.model },
      response: { model: call.model },
      usage: { input_tokens: call.input_tokens, output_tokens: call.output_tokens },
    },
  },
}));

const FIXTURES: Record<string, Fixture> = {
  'README.md': {},
  'docs/guides/datasets.md': { datasets: [{ name: 'traces' }] },
  'docs/guides/queries.md': { datasets: [{ name: 'web-logs' }], events: { 'web-logs': webLogs } },
  'docs/guides/ingest.md': { datasets: [{ name: 'web-logs' }] },
  'docs/guides/sending-data.md': { datasets: [{ name: 'web-logs' }, { name: 'otel-traces' }] },
  'docs/guides/annotations-saved-queries-dashboards.md': { datasets: [{ name: 'web-logs' }, { name: 'api-logs' }] },
  'docs/guides/monitors.md': { datasets: [{ name: 'web-logs' }], events: { 'web-logs': webLogs } },
  'docs/guides/llm-costs.md': { datasets: [{ name: 'otel-traces' }, { name: 'llm-calls' }], events: { 'otel-traces': genAiSpans, 'llm-calls': llmCalls } },
  'docs/guides/metrics.md': { setup: prepareMetrics },
  'docs/guides/teams-and-tokens.md': { datasets: [{ name: 'web-logs' }], graphqlFirst: true },
};

function available(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}
const TOOLS_PRESENT = ['bash', 'curl', 'jq'].every(available);
// CI installs them (.ci/run): there a missing tool is an error, not a skip.
if (!TOOLS_PRESENT && process.env.CI) throw new Error('the docs snippets test needs bash, curl and jq');
if (!TOOLS_PRESENT) console.warn('bash, curl or jq is missing: the docs snippets test is skipped');

/** Fails the shell on a non-2xx answer or a GraphQL `errors` list, printing what came back. */
const CURL_CHECK = [
  'curl() {',
  '  local answer status',
  `  answer=$(command curl -sS -w '\\n%{http_code}' "$@") || { echo "curl failed: curl $*" >&2; return 1; }`,
  "  status=${answer##*$'\\n'}",
  "  answer=${answer%$'\\n'*}",
  "  printf '%s\\n' \"$answer\"",
  '  case $status in 2*) ;; *) echo "HTTP $status from: curl $* -> $answer" >&2; return 1 ;; esac',
  `  case $answer in *'"errors":[{'*) echo "GraphQL errors from: curl $* -> $answer" >&2; return 1 ;; esac`,
  '}',
].join('\n');

/** The shell blocks as written, and GraphQL and APL blocks as POSTs of body files (written here into `cwd`). */
function shellScript(server: TestServer, snippets: Snippet[], cwd: string): string {
  const parts = ['set -euo pipefail', CURL_CHECK];
  snippets.forEach((snippet, index) => {
    parts.push(`echo '>>> ${snippet.file}:${snippet.line}' >&2`);
    const post = (route: string, body: string, json: unknown) => {
      writeFileSync(path.join(cwd, body), JSON.stringify(json));
      parts.push(`curl -s '${server.url}${route}' -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data-binary @${body}`);
    };
    if (snippet.language === 'graphql') post('/graphql', `graphql-${index}.json`, { query: snippet.code });
    else if (snippet.language === 'kusto') {
      aplQueries(snippet.code).forEach((apl, query) => post('/v1/datasets/_apl?format=tabular', `apl-${index}-${query}.json`, { apl, startTime: 'now-30d' }));
    } else {
      parts.push(snippet.code.replaceAll('http://127.0.0.1:8080', server.url).replaceAll('xapt-...', server.adminToken));
    }
  });
  return parts.join('\n');
}

/** Runs the snippets in one bash process, asynchronously: the server answering them lives in this process. */
function runShell(server: TestServer, snippets: Snippet[], cwd: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', shellScript(server, snippets, cwd)], {
      cwd,
      env: { ...process.env, TOKEN: server.adminToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

async function prepare(server: TestServer, fixture: Fixture): Promise<void> {
  for (const dataset of fixture.datasets ?? []) {
    const response = await server.request('/v2/datasets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: dataset.name }),
    });
    expect(response.status, `create ${dataset.name}`).toBe(200);
  }
  for (const [dataset, events] of Object.entries(fixture.events ?? {})) {
    const response = await server.request(`/v1/datasets/${dataset}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(response.status, `ingest into ${dataset}`).toBe(200);
  }
  await fixture.setup?.(server);
}

const filesWithSnippets = markdownFiles()
  .map((file) => ({ file, snippets: runnableSnippets(file) }))
  .filter(({ snippets }) => snippets.length > 0);

describe('aplQueries', () => {
  it('reads one query per source line, continuation lines included, comments left out', () => {
    expect(aplQueries("// cost\n['a'] | count\n\n// top\n['a'] | summarize n = count() by k\n| top 3 by n\nprint 1")).toEqual([
      "['a'] | count",
      "['a'] | summarize n = count() by k | top 3 by n",
      'print 1',
    ]);
  });
});

describe.skipIf(!TOOLS_PRESENT)('runnable snippets of the docs', () => {
  it('are found in the README and the guides', () => {
    const files = filesWithSnippets.map(({ file }) => file);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/guides/ingest.md');
    expect(files).toContain('docs/guides/queries.md');
    expect(files).toContain('docs/guides/datasets.md');
  });

  it('fails on an answer that is not 2xx, on GraphQL errors and on a failing APL query', async () => {
    const server = await startTestServer();
    const cwd = mkdtempSync(path.join(tmpdir(), 'eventdeck-snippets-'));
    try {
      const snippet = (language: Snippet['language'], code: string): Snippet => ({ file: 'check.md', line: 1, language, code });
      const missing = await runShell(server, [snippet('sh', 'curl -s http://127.0.0.1:8080/v2/datasets/nope -H "Authorization: Bearer $TOKEN"')], cwd);
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('HTTP 404');
      const graphqlError = await runShell(server, [snippet('graphql', '{ datasets(first: 1) { nope } }')], cwd);
      expect(graphqlError.status).not.toBe(0);
      const aplError = await runShell(server, [snippet('kusto', "// a dataset nobody made\n['nope'] | count")], cwd);
      expect(aplError.status).not.toBe(0);
      const fine = await runShell(server, [snippet('sh', 'curl -s http://127.0.0.1:8080/v2/datasets -H "Authorization: Bearer $TOKEN"'), snippet('graphql', '{ __typename }')], cwd);
      expect(fine.status, fine.stderr).toBe(0);
    } finally {
      await server.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  // Each file on a fresh server of its own, one file after the other.
  for (const { file, snippets } of filesWithSnippets) {
    const fixture = FIXTURES[file] ?? {};
    const ordered = fixture.graphqlFirst
      ? [...snippets.filter((snippet) => snippet.language !== 'sh'), ...snippets.filter((snippet) => snippet.language === 'sh')]
      : snippets;
    it(`${file}: its snippets run (${snippets.length === 1 ? 'line' : 'lines'} ${snippets.map((snippet) => snippet.line).join(', ')})`, async () => {
      const server = await startTestServer();
      const workDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-snippets-'));
      try {
        await prepare(server, fixture);
        const result = await runShell(server, ordered, workDir);
        expect(result.status, result.stderr.split('\n').slice(-15).join('\n')).toBe(0);
      } finally {
        await server.close();
        rmSync(workDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
