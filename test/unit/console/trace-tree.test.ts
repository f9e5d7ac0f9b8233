// The trace page's model, on tabular answers shaped like the server's for OTLP spans: exact
// nanosecond times and Go durations, the span tree (order, depth, orphans, a loop of parents),
// the critical path, folded subtrees, how lengths read, and the fields the waterfall asks for.
import { describe, expect, it } from 'vitest';
import type { ResultTable } from '../../../console/src/api/query';
import { spanEventApl, waterfallSpansApl } from '../../../console/src/api/traces';
import { formatCount, formatNanos } from '../../../console/src/pages/traces/format';
import { readSpans } from '../../../console/src/pages/traces/span-model';
import { buildTraceTree, visibleSpans } from '../../../console/src/pages/traces/span-tree';
import { absoluteBound } from '../../../console/src/pages/traces/trace-link';
import { nanosBetween, parseDurationNanos, parseInstant } from '../../../console/src/pages/traces/time-ns';

interface Row {
  span: string;
  parent: string | null;
  name: string;
  /** Nanoseconds after 2026-11-27T10:00:00Z. */
  start: number;
  duration: string;
  error?: boolean;
}

const BASE_MS = Date.UTC(2026, 10, 27, 10, 0, 0);
function rfc3339(nanosAfterBase: number): string {
  const ms = Math.floor(nanosAfterBase / 1e6);
  const inside = nanosAfterBase - ms * 1e6;
  const iso = new Date(BASE_MS + ms).toISOString();
  return inside === 0 ? iso : `${iso.slice(0, -1)}${String(inside).padStart(6, '0')}Z`;
}

function table(rows: Row[]): ResultTable {
  const fields = ['_time', 'span_id', 'parent_span_id', 'name', 'service.name', 'duration', 'error'];
  return {
    name: '0',
    sources: [{ name: 'spans' }],
    fields: fields.map((name) => ({ name, type: 'string' })),
    order: [],
    groups: [],
    columns: [
      rows.map((row) => rfc3339(row.start)),
      rows.map((row) => row.span),
      rows.map((row) => row.parent),
      rows.map((row) => row.name),
      rows.map(() => 'api'),
      rows.map((row) => row.duration),
      rows.map((row) => row.error ?? false),
    ],
  };
}

const treeOf = (rows: Row[]) => buildTraceTree(readSpans([{ dataset: 'spans', table: table(rows), truncated: false }]));
const names = (tree: ReturnType<typeof treeOf>, nodes: number[]) => nodes.map((node) => tree.spans[node]!.name);

describe('span times', () => {
  it('keeps nanoseconds between instants and reads Go durations exactly', () => {
    const a = parseInstant('2026-11-27T10:00:00.000000001Z')!;
    const b = parseInstant('2026-11-27T10:00:01.25Z')!;
    expect(nanosBetween(a, b)).toBe(1_249_999_999);
    expect(parseDurationNanos('250.000123ms')).toBe(250_000_123);
    expect(parseDurationNanos('1h2m3.5s')).toBe(3_723_500_000_000);
    expect(parseDurationNanos('12.5µs')).toBe(12_500);
    expect(parseDurationNanos('1ns')).toBe(1);
    expect(parseDurationNanos('0s')).toBe(0);
    expect(parseDurationNanos('soon')).toBeUndefined();
  });

  it('reads every fraction length and form of instant and duration the same way', () => {
    const base = Date.UTC(2026, 10, 27, 10, 0, 0);
    expect(parseInstant('2026-11-27T10:00:00Z')).toEqual({ ms: base, nanosInMs: 0 });
    expect(parseInstant('2026-11-27T10:00:00.5Z')).toEqual({ ms: base + 500, nanosInMs: 0 });
    expect(parseInstant('2026-11-27T10:00:00.123456Z')).toEqual({ ms: base + 123, nanosInMs: 456_000 });
    expect(parseInstant('2026-11-27T10:00:00.999999999Z')).toEqual({ ms: base + 999, nanosInMs: 999_999 });
    // Another second after one read before; an offset; not a time.
    expect(parseInstant('2026-11-27T10:00:07.000000001Z')).toEqual({ ms: base + 7000, nanosInMs: 1 });
    expect(parseInstant('2026-11-27T12:00:00.25+02:00')).toEqual({ ms: base + 250, nanosInMs: 0 });
    expect(parseInstant('2026-11-27T10:00:00.x5Z')).toBeUndefined();
    expect(parseInstant('yesterday')).toBeUndefined();
    expect(parseDurationNanos('850µs')).toBe(850_000);
    expect(parseDurationNanos('2s')).toBe(2e9);
    expect(parseDurationNanos('0.000000001s')).toBe(1);
    expect(parseDurationNanos('-5ms')).toBe(-5e6);
    expect(parseDurationNanos('2m0.5s')).toBe(120.5e9);
    expect(parseDurationNanos('5toString')).toBeUndefined();
    expect(parseDurationNanos('ms')).toBeUndefined();
  });

  it('reads lengths in the unit that fits', () => {
    expect(formatNanos(200_000_000)).toBe('200 ms');
    expect(formatNanos(250_000_123)).toBe('250 ms');
    expect(formatNanos(1_250_000_000)).toBe('1.25 s');
    expect(formatNanos(12_500)).toBe('12.5 µs');
    expect(formatNanos(999_999)).toBe('1 ms');
    expect(formatNanos(90e9)).toBe('1.5 min');
    expect(formatNanos(0)).toBe('0 ns');
    expect(formatNanos(-1_500)).toBe('−1.5 µs');
    expect(formatNanos(7_200e9)).toBe('2 h');
    expect(formatNanos(1e16)).toBe('2,777.78 h');
  });

  it('groups counts and rounds to two decimals as en-US number formatting does', () => {
    expect(formatCount(1, 'span', 'spans')).toBe('1 span');
    expect(formatCount(0, 'error', 'errors')).toBe('0 errors');
    expect(formatCount(10_000, 'span', 'spans')).toBe('10,000 spans');
    expect(formatCount(1_234_567, 'span', 'spans')).toBe('1,234,567 spans');
    // Lengths in hours show the grouping and the decimals of the reference formatter.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      const count = Math.floor(random() * 10 ** Math.floor(random() * 10));
      expect(formatCount(count, 'x', 'x')).toBe(`${count.toLocaleString('en-US')} x`);
      const hours = 1 + Math.round(random() * 10 ** Math.floor(random() * 7) * 1000) / 1000 + 0.0001;
      expect(formatNanos(hours * 3600e9)).toBe(`${hours.toLocaleString('en-US', { maximumFractionDigits: 2 })} h`);
    }
  });

  it('pins relative range bounds to times', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0);
    expect(absoluteBound('now-2h', now)).toBe('2026-11-27T10:00:00.000Z');
    expect(absoluteBound('now', now)).toBe('2026-11-27T12:00:00.000Z');
    expect(absoluteBound('2026-11-01T00:00:00Z', now)).toBe('2026-11-01T00:00:00Z');
  });
});

describe('span tree', () => {
  const rows: Row[] = [
    { span: 'c2', parent: 'r', name: 'second child', start: 50e6, duration: '10ms' },
    { span: 'r', parent: '', name: 'root', start: 0, duration: '100ms' },
    { span: 'c1', parent: 'r', name: 'first child', start: 10e6, duration: '80ms' },
    { span: 'g', parent: 'c1', name: 'grandchild', start: 20e6, duration: '30ms', error: true },
    { span: 'o', parent: 'gone', name: 'orphan', start: 5e6, duration: '1ms' },
    { span: 'log', parent: null, name: 'a log line', start: 6e6, duration: '' },
  ];

  it('nests spans under their parents in start order, orphans last at the top level, logs left out', () => {
    const tree = treeOf(rows);
    expect(tree.spans).toHaveLength(5);
    expect(names(tree, tree.order)).toEqual(['root', 'first child', 'grandchild', 'second child', 'orphan']);
    expect(tree.order.map((node) => tree.depth[node])).toEqual([0, 1, 2, 1, 0]);
    expect(names(tree, tree.roots)).toEqual(['root', 'orphan']);
    expect(tree.order.map((node) => tree.orphan[node])).toEqual([0, 0, 0, 0, 1]);
    expect(tree.totalNanos).toBe(100e6);
    expect(tree.errorCount).toBe(1);
  });

  it('follows the child that ends last from the root for the critical path', () => {
    const tree = treeOf(rows);
    expect(names(tree, tree.order.filter((node) => tree.critical[node]))).toEqual(['root', 'first child', 'grandchild']);
  });

  it('hides the subtrees of folded spans', () => {
    const tree = treeOf(rows);
    const firstChild = tree.spans.findIndex((span) => span.name === 'first child');
    expect(names(tree, visibleSpans(tree, new Set([firstChild])))).toEqual(['root', 'first child', 'second child', 'orphan']);
    const root = tree.spans.findIndex((span) => span.name === 'root');
    expect(names(tree, visibleSpans(tree, new Set([root])))).toEqual(['root', 'orphan']);
  });

  it('shows spans whose parents form a loop, once each, as orphans', () => {
    const tree = treeOf([
      { span: 'a', parent: 'b', name: 'a', start: 0, duration: '1ms' },
      { span: 'b', parent: 'a', name: 'b', start: 1e6, duration: '1ms' },
    ]);
    expect(names(tree, tree.order)).toEqual(['a', 'b']);
    expect(tree.orphan[0]).toBe(1);
    expect(tree.depth[1]).toBe(1);
  });

  it('builds a tree of 10,000 spans deep as a chain without recursion', () => {
    const chain: Row[] = Array.from({ length: 10_000 }, (_, i) => ({ span: `s${i}`, parent: i === 0 ? '' : `s${i - 1}`, name: `n${i}`, start: i * 1000, duration: '1ms' }));
    const tree = treeOf(chain);
    expect(tree.depth[9_999]).toBe(9_999);
    expect(tree.subtreeSize[0]).toBe(10_000);
  });
});

describe('the waterfall\'s query', () => {
  it('asks only for the fields the waterfall draws, each read as empty where the dataset lacks it', () => {
    expect(waterfallSpansApl("o'brien", 'abc')).toBe(
      `['o\\'brien'] | where trace_id == "abc" and isnotnull(parent_span_id) | project _time, span_id, parent_span_id, ` +
        `name = column_ifexists("name", ''), ['service.name'] = column_ifexists("service.name", ''), kind = column_ifexists("kind", ''), ` +
        `duration = column_ifexists("duration", ''), error = column_ifexists("error", false), ['status.code'] = column_ifexists("status.code", ''), ` +
        `['status.message'] = column_ifexists("status.message", ''), events = column_ifexists("events", '')`,
    );
    expect(spanEventApl('spans', 'abc', 'def')).toBe(`['spans'] | where trace_id == "abc" and span_id == "def" and isnotnull(parent_span_id) | take 1`);
  });

  it('reads spans without a whole row: events as marks, one shared empty list for the rest', () => {
    const spans = readSpans([
      {
        dataset: 'spans',
        truncated: false,
        table: {
          name: '0',
          sources: [],
          fields: ['_time', 'span_id', 'parent_span_id', 'events'].map((name) => ({ name, type: 'string' })),
          order: [],
          groups: [],
          columns: [['2026-11-27T10:00:00.000000100Z', '2026-11-27T10:00:00.5Z'], ['a', 'b'], ['', 'a'], [[{ name: 'retry', timestamp: '2026-11-27T10:00:00.25Z' }], null]],
        },
      },
    ]);
    expect(spans.map((span) => span.events.map((event) => [event.name, event.at]))).toEqual([[['retry', { ms: BASE_MS + 250, nanosInMs: 0 }]], []]);
    expect(spans[1]!.ended).toBe(false);
  });
});
