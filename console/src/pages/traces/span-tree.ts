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

// The tree is built once per page load, by code that runs for the first time then: plain loops
// in one function rather than callbacks, which the engine runs slowly until it has seen them
// many times.
export function buildTraceTree(spans: Span[]): TraceTree {
  const count = spans.length;
  let traceStart: Instant = spans[0]?.start ?? { ms: 0, nanosInMs: 0 };
  for (let index = 1; index < count; index++) {
    const start = spans[index]!.start;
    if (nanosBetween(traceStart, start) < 0) traceStart = start;
  }
  const startOffset = new Float64Array(count);
  const endOffset = new Float64Array(count);
  let totalNanos = 1;
  for (let index = 0; index < count; index++) {
    const span = spans[index]!;
    const offset = (span.start.ms - traceStart.ms) * 1_000_000 + (span.start.nanosInMs - traceStart.nanosInMs);
    startOffset[index] = offset;
    endOffset[index] = offset + span.durationNanos;
    if (offset + span.durationNanos > totalNanos) totalNanos = offset + span.durationNanos;
  }

  // The first span with an id is the one its children hang under.
  const byId = new Map<string, number>();
  for (let index = 0; index < count; index++) {
    const spanId = spans[index]!.spanId;
    if (spanId && !byId.has(spanId)) byId.set(spanId, index);
  }
  // Every span in start order once (spans mostly arrive in it, which the sort makes quick);
  // children and top-level spans are then listed in that order.
  const byStart: number[] = new Array<number>(count);
  for (let index = 0; index < count; index++) byStart[index] = index;
  byStart.sort((a, b) => startOffset[a]! - startOffset[b]! || spans[a]!.name.localeCompare(spans[b]!.name) || a - b);
  // Lists only for spans that have children (most spans of a large trace are leaves).
  const candidates: (number[] | undefined)[] = new Array<number[] | undefined>(count);
  const roots: number[] = [];
  const orphans: number[] = [];
  const orphan = new Uint8Array(count);
  for (let position = 0; position < count; position++) {
    const index = byStart[position]!;
    const parentSpanId = spans[index]!.parentSpanId;
    const parentIndex = parentSpanId ? byId.get(parentSpanId) : undefined;
    if (parentIndex === undefined || parentIndex === index) {
      if (parentSpanId) {
        orphan[index] = 1;
        orphans.push(index);
      } else roots.push(index);
    } else {
      const list = candidates[parentIndex];
      if (list) list.push(index);
      else candidates[parentIndex] = [index];
    }
  }

  // Depth first from the top level (roots, then orphans); spans left unvisited sit in a loop of
  // parents and become orphans. Leaves share one empty list.
  const children: number[][] = new Array<number[]>(count).fill(NO_CHILDREN);
  const depth = new Int32Array(count);
  const parent = new Int32Array(count).fill(-1);
  const visited = new Uint8Array(count);
  const order: number[] = [];
  const topLevel: number[] = [];
  const stack = new Int32Array(count);
  const walk = (top: number) => {
    visited[top] = 1;
    topLevel.push(top);
    let height = 0;
    stack[height++] = top;
    while (height > 0) {
      const node = stack[--height]!;
      order.push(node);
      let listed = candidates[node];
      if (!listed) continue;
      // Only in a loop of parents can a listed child have been reached already.
      let reached = false;
      for (let i = 0; i < listed.length; i++) if (visited[listed[i]!]) reached = true;
      if (reached) listed = listed.filter((child) => !visited[child]);
      for (let i = 0; i < listed.length; i++) {
        const child = listed[i]!;
        visited[child] = 1;
        parent[child] = node;
        depth[child] = depth[node]! + 1;
      }
      children[node] = listed;
      for (let i = listed.length - 1; i >= 0; i--) stack[height++] = listed[i]!;
    }
  };
  for (let i = 0; i < roots.length; i++) walk(roots[i]!);
  for (let i = 0; i < orphans.length; i++) walk(orphans[i]!);
  for (let index = 0; index < count; index++) {
    if (visited[index]) continue;
    orphan[index] = 1;
    walk(index);
  }

  const subtreeSize = new Int32Array(count).fill(1);
  const positionInSet = new Int32Array(count);
  const setSize = new Int32Array(count);
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    const list = children[node]!;
    for (let j = 0; j < list.length; j++) {
      const child = list[j]!;
      subtreeSize[node]! += subtreeSize[child]!;
      positionInSet[child] = j + 1;
      setSize[child] = list.length;
    }
  }
  for (let i = 0; i < topLevel.length; i++) {
    positionInSet[topLevel[i]!] = i + 1;
    setSize[topLevel[i]!] = topLevel.length;
  }

  const services: string[] = [];
  const serviceIndex = new Int32Array(count);
  const serviceNumbers = new Map<string, number>();
  let errorCount = 0;
  for (let i = 0; i < order.length; i++) {
    const node = order[i]!;
    const span = spans[node]!;
    let number = serviceNumbers.get(span.service);
    if (number === undefined) {
      number = services.length;
      services.push(span.service);
      serviceNumbers.set(span.service, number);
    }
    serviceIndex[node] = number;
    if (span.error) errorCount++;
  }

  return {
    spans,
    traceStart,
    totalNanos,
    startOffset,
    endOffset,
    children,
    parent,
    roots: topLevel,
    orphan,
    depth,
    subtreeSize,
    positionInSet,
    setSize,
    order,
    critical: criticalPath(topLevel, orphan, children, endOffset, count),
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
