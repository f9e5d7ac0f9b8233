// The span tree of a trace: each span under its parent, siblings in start order; a span whose
// parent is not among the spans (not sent, outside the time range, or a loop of parents) is an
// orphan, shown at the top level and marked. Also what the waterfall needs in one pass: offsets
// on the trace's time axis, depth, the rows left when subtrees are collapsed, and the critical
// path: from the root, at each level the child whose end is latest.
import type { Span } from './span-model';
import { type Instant, nanosBetween } from './time-ns';

export interface TraceTree {
  spans: Span[];
  /** When the earliest span starts. */
  traceStart: Instant;
  /** From the earliest start to the latest end (at least 1, so shares can be taken). */
  totalNanos: number;
  /** Per span: nanoseconds from the trace's start to its start, and to its end. */
  startOffset: Float64Array;
  endOffset: Float64Array;
  /** Per span: its children in start order. */
  children: number[][];
  /** Per span: its parent in the tree, -1 at the top level. */
  parent: Int32Array;
  /** Top-level spans: roots, then orphans, in start order. */
  roots: number[];
  orphan: Uint8Array;
  depth: Int32Array;
  /** Per span: the number of spans in its subtree, itself included. */
  subtreeSize: Int32Array;
  /** Per span: its place among its siblings (1-based) and their number. */
  positionInSet: Int32Array;
  setSize: Int32Array;
  /** Every span in tree order (depth first). */
  order: number[];
  /** Per span: 1 when it is on the critical path. */
  critical: Uint8Array;
  /** Services in order of first appearance in the tree, and each span's index among them. */
  services: string[];
  serviceIndex: Int32Array;
  errorCount: number;
}

const NO_CHILDREN: number[] = Object.freeze([]) as unknown as number[];

export function buildTraceTree(spans: Span[]): TraceTree {
  const count = spans.length;
  let traceStart: Instant = spans[0]?.start ?? { ms: 0, nanosInMs: 0 };
  for (const span of spans) if (nanosBetween(traceStart, span.start) < 0) traceStart = span.start;
  const startOffset = new Float64Array(count);
  const endOffset = new Float64Array(count);
  let totalNanos = 1;
  spans.forEach((span, index) => {
    startOffset[index] = nanosBetween(traceStart, span.start);
    endOffset[index] = startOffset[index]! + span.durationNanos;
    totalNanos = Math.max(totalNanos, endOffset[index]!);
  });

  // The first span with an id is the one its children hang under.
  const byId = new Map<string, number>();
  spans.forEach((span, index) => {
    if (span.spanId && !byId.has(span.spanId)) byId.set(span.spanId, index);
  });
  const byStart = (a: number, b: number) => startOffset[a]! - startOffset[b]! || spans[a]!.name.localeCompare(spans[b]!.name) || a - b;
  // Lists only for spans that have children (most spans of a large trace are leaves).
  const candidates: (number[] | undefined)[] = new Array<number[] | undefined>(count);
  const topLevel: number[] = [];
  const orphan = new Uint8Array(count);
  for (let index = 0; index < count; index++) {
    const parentSpanId = spans[index]!.parentSpanId;
    const parentIndex = parentSpanId ? byId.get(parentSpanId) : undefined;
    if (parentIndex === undefined || parentIndex === index) {
      topLevel.push(index);
      if (parentSpanId) orphan[index] = 1;
    } else (candidates[parentIndex] ??= []).push(index);
  }
  for (const list of candidates) if (list && list.length > 1) list.sort(byStart);
  topLevel.sort((a, b) => orphan[a]! - orphan[b]! || byStart(a, b));

  // Depth first from the top level; spans left unvisited sit in a loop of parents and become orphans.
  // Leaves share one empty list.
  const children: number[][] = new Array<number[]>(count).fill(NO_CHILDREN);
  const depth = new Int32Array(count);
  const parent = new Int32Array(count).fill(-1);
  const visited = new Uint8Array(count);
  const order: number[] = [];
  const roots: number[] = [];
  const walk = (top: number) => {
    visited[top] = 1;
    roots.push(top);
    const stack = [top];
    while (stack.length > 0) {
      const node = stack.pop()!;
      order.push(node);
      const listed = candidates[node];
      if (!listed) continue;
      // Only in a loop of parents can a listed child have been reached already.
      const adopted = listed.some((child) => visited[child]) ? listed.filter((child) => !visited[child]) : listed;
      for (const child of adopted) {
        visited[child] = 1;
        parent[child] = node;
        depth[child] = depth[node]! + 1;
      }
      children[node] = adopted;
      for (let i = adopted.length - 1; i >= 0; i--) stack.push(adopted[i]!);
    }
  };
  for (const top of topLevel) walk(top);
  for (let index = 0; index < count; index++) {
    if (visited[index]) continue;
    orphan[index] = 1;
    walk(index);
  }

  const subtreeSize = new Int32Array(count).fill(1);
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    for (const child of children[node]!) subtreeSize[node]! += subtreeSize[child]!;
  }
  const positionInSet = new Int32Array(count);
  const setSize = new Int32Array(count);
  const place = (siblings: number[]) =>
    siblings.forEach((node, i) => {
      positionInSet[node] = i + 1;
      setSize[node] = siblings.length;
    });
  place(roots);
  for (const list of children) if (list.length > 0) place(list);

  const services: string[] = [];
  const serviceIndex = new Int32Array(count);
  const serviceNumbers = new Map<string, number>();
  let errorCount = 0;
  for (const node of order) {
    const service = spans[node]!.service;
    let number = serviceNumbers.get(service);
    if (number === undefined) {
      number = services.length;
      services.push(service);
      serviceNumbers.set(service, number);
    }
    serviceIndex[node] = number;
    if (spans[node]!.error) errorCount++;
  }

  return {
    spans,
    traceStart,
    totalNanos,
    startOffset,
    endOffset,
    children,
    parent,
    roots,
    orphan,
    depth,
    subtreeSize,
    positionInSet,
    setSize,
    order,
    critical: criticalPath(roots, orphan, children, endOffset, count),
    services,
    serviceIndex,
    errorCount,
  };
}

/** The span of `candidates` that ends last (the earlier in the list on a tie). */
function latestEnding(candidates: number[], endOffset: Float64Array): number | undefined {
  let best: number | undefined;
  for (const node of candidates) if (best === undefined || endOffset[node]! > endOffset[best]!) best = node;
  return best;
}

/** From the root that ends last (an orphan only when there is no root), the child that ends last, down to a leaf. */
function criticalPath(roots: number[], orphan: Uint8Array, children: number[][], endOffset: Float64Array, count: number): Uint8Array {
  const critical = new Uint8Array(count);
  const trueRoots = roots.filter((node) => !orphan[node]);
  let node = latestEnding(trueRoots.length > 0 ? trueRoots : roots, endOffset);
  while (node !== undefined) {
    critical[node] = 1;
    node = latestEnding(children[node]!, endOffset);
  }
  return critical;
}

/** The spans shown, in tree order, when the subtrees of `collapsed` are folded. */
export function visibleSpans(tree: TraceTree, collapsed: ReadonlySet<number>): number[] {
  if (collapsed.size === 0) return tree.order;
  const shown: number[] = [];
  for (let position = 0; position < tree.order.length; ) {
    const node = tree.order[position]!;
    shown.push(node);
    position += collapsed.has(node) ? tree.subtreeSize[node]! : 1;
  }
  return shown;
}
