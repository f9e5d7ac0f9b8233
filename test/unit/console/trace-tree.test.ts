// The trace page's model, on tabular answers shaped like the server's for OTLP spans: exact
// nanosecond times and Go durations, the span tree (order, depth, orphans, a loop of parents),
// the critical path, folded subtrees, and how lengths read.
import { describe, expect, it } from 'vitest';
import type { ResultTable } from '../../../console/src/api/query';
import { formatNanos } from '../../../console/src/pages/traces/format';
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

  it('reads lengths in the unit that fits', () => {
    expect(formatNanos(200_000_000)).toBe('200 ms');
    expect(formatNanos(250_000_123)).toBe('250 ms');
    expect(formatNanos(1_250_000_000)).toBe('1.25 s');
    expect(formatNanos(12_500)).toBe('12.5 µs');
    expect(formatNanos(999_999)).toBe('1 ms');
    expect(formatNanos(90e9)).toBe('1.5 min');
    expect(formatNanos(0)).toBe('0 ns');
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
