// The datasets pages' pure parts: the field tree from dot-separated names, which quick chart a
// field gets, NDJSON line numbers of failed events, and "Send data" snippets written for the
// server, dataset and token, with the paths and headers the doors serve.
import { describe, expect, it } from 'vitest';
import type { DatasetField } from '../../../console/src/api/datasets';
import { buildFieldTree, chartKindOf } from '../../../console/src/pages/datasets/fields/field-tree';
import { ndjsonLineNumbers } from '../../../console/src/pages/datasets/upload/failure-lines';
import { snippetsFor } from '../../../console/src/pages/datasets/send/snippets';

const field = (name: string, type = 'string'): DatasetField => ({ name, type, unit: '', description: '', hidden: false });

describe('field tree', () => {
  it('groups nested names under their parts, system fields first, a name that is both a field and a group kept once', () => {
    const tree = buildFieldTree([field('status', 'integer'), field('req.method'), field('_time', 'datetime'), field('req'), field('req.headers.host')]);
    expect(tree.map((node) => node.part)).toEqual(['_time', 'req', 'status']);
    const req = tree[1]!;
    expect(req.field?.name).toBe('req');
    expect(req.children.map((node) => [node.part, node.path, node.field?.name])).toEqual([
      ['headers', 'req.headers', undefined],
      ['method', 'req.method', 'req.method'],
    ]);
    expect(req.children[0]!.children[0]!.field?.name).toBe('req.headers.host');
  });

  it('charts numbers, times and other values apart', () => {
    expect(chartKindOf(field('duration', 'integer'))).toBe('numbers');
    expect(chartKindOf(field('ratio', 'float'))).toBe('numbers');
    expect(chartKindOf(field('took', 'timespan'))).toBe('numbers');
    expect(chartKindOf(field('_time', 'datetime'))).toBe('time');
    expect(chartKindOf(field('code', 'string|integer'))).toBe('values');
    expect(chartKindOf(field('ok', 'boolean'))).toBe('values');
  });
});

describe('NDJSON line numbers', () => {
  it('skips blank lines when counting events', () => {
    const text = ['{"a":1}', '', '  ', '{"a":2}', '{"a":3}', '', '{"a":4}'].join('\n');
    expect(ndjsonLineNumbers(text, [0, 2, 3])).toEqual(new Map([[0, 1], [2, 5], [3, 7]]));
    expect(ndjsonLineNumbers(text, [9])).toEqual(new Map());
  });
});

describe('Send data snippets', () => {
  const snippets = snippetsFor({ origin: 'https://events.example.com', dataset: 'web-logs', token: 'xaat-secret', metrics: false });
  const text = (id: string) => snippets.find((snippet) => snippet.id === id)!.text;

  it('covers every door', () => {
    expect(snippets.map((snippet) => snippet.id)).toEqual(['curl', 'axiom-js', 'otel-sdk', 'otel-collector', 'vector', 'filebeat', 'logstash', 'fluentd', 'promtail', 'alloy', 'splunk-hec', 'heroku']);
  });

  it('writes the URL, dataset and token where each door reads them', () => {
    expect(text('curl')).toContain("'https://events.example.com/v1/datasets/web-logs/ingest'");
    expect(text('curl')).toContain("'Authorization: Bearer xaat-secret'");
    expect(text('otel-sdk')).toContain('OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer xaat-secret,X-Axiom-Dataset=web-logs"');
    expect(text('filebeat')).toContain('hosts: ["https://events.example.com/v1/ingest/web-logs/elastic"]');
    expect(text('filebeat')).toContain('api_key: "axiom:xaat-secret"');
    expect(text('fluentd')).toMatch(/host events\.example\.com\n {2}port 443\n {2}scheme https\n {2}path \/v1\/ingest\/web-logs\/elastic/);
    expect(text('promtail')).toContain('url: https://events.example.com/loki/api/v1/push');
    expect(text('splunk-hec')).toContain("'https://events.example.com/services/collector/event?index=web-logs'");
    expect(text('splunk-hec')).toContain("'Authorization: Splunk xaat-secret'");
    expect(text('heroku')).toContain("'https://axiom:xaat-secret@events.example.com/v1/datasets/web-logs/ingest'");
  });

  it('offers only OTLP for a metrics dataset', () => {
    const metrics = snippetsFor({ origin: 'http://127.0.0.1:8080', dataset: 'm', token: 't', metrics: true });
    expect(metrics.map((snippet) => snippet.id)).toEqual(['otel-sdk', 'otel-collector']);
    expect(metrics[1]!.text).toContain('    metrics:');
  });
});
