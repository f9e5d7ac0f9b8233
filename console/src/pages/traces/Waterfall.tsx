// The waterfall: one row per span (service, name, a bar on the trace's shared time axis at its
// offset and length, its span events as marks, its duration), as an ARIA tree whose subtrees
// collapse and expand. Rows are virtualized: only those in view are in the DOM, so a trace of
// tens of thousands of spans scrolls smoothly. Keys: arrows move, Left/Right fold and unfold,
// Enter or a click opens a span's details.
import { useVirtualizer } from '@tanstack/react-virtual';
import { AlertTriangle, ChevronDown, ChevronRight, Unlink } from 'lucide-react';
import { memo, useEffect, useRef, useState } from 'react';
import { seriesColor } from '../query/charts/palette';
import { formatNanos } from './format';
import type { TraceTree } from './span-tree';
import { nanosBetween } from './time-ns';

const ROW_HEIGHT = 28;
const AXIS_TICKS = [0, 0.25, 0.5, 0.75, 1];
/** Deeper levels are indented as much as this one, so names stay readable. */
const MAX_INDENT_LEVEL = 30;

export interface WaterfallProps {
  tree: TraceTree;
  /** The spans shown, in tree order. */
  visible: number[];
  collapsed: ReadonlySet<number>;
  selected: number | undefined;
  onToggle(node: number): void;
  onSelect(node: number): void;
}

export function Waterfall({ tree, visible, collapsed, selected, onToggle, onSelect }: WaterfallProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [focusPosition, setFocusPosition] = useState(0);
  const [focusWanted, setFocusWanted] = useState(false);
  const count = visible.length;

  // Rows from the first render (the window's height stands in for the list's until it is
  // measured), rather than an empty list first and the rows one render later.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 0, height: window.innerHeight },
  });

  // The selected span (chosen here, from a log or a link) comes into view.
  useEffect(() => {
    if (selected === undefined) return;
    const position = visible.indexOf(selected);
    if (position === -1) return;
    setFocusPosition(position);
    virtualizer.scrollToIndex(position, { align: 'auto' });
  }, [selected, visible, virtualizer]);

  useEffect(() => {
    if (focusPosition >= count && count > 0) setFocusPosition(count - 1);
  }, [count, focusPosition]);

  useEffect(() => {
    if (!focusWanted) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-position="${focusPosition}"]`);
    if (element) {
      element.focus({ preventScroll: true });
      setFocusWanted(false);
    }
  });

  const moveFocus = (position: number) => {
    const next = Math.max(0, Math.min(count - 1, position));
    setFocusPosition(next);
    setFocusWanted(true);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onRowKeyDown = (event: React.KeyboardEvent, position: number) => {
    const node = visible[position]!;
    const hasChildren = tree.children[node]!.length > 0;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 2);
    const moves: Record<string, number> = { ArrowDown: position + 1, ArrowUp: position - 1, PageDown: position + page, PageUp: position - page, Home: 0, End: count - 1 };
    let handled = true;
    if (moves[event.key] !== undefined) moveFocus(moves[event.key]!);
    else if (event.key === 'ArrowRight') {
      if (hasChildren && collapsed.has(node)) onToggle(node);
      else if (hasChildren) moveFocus(position + 1);
    } else if (event.key === 'ArrowLeft') {
      if (hasChildren && !collapsed.has(node)) onToggle(node);
      else if (tree.parent[node]! >= 0) moveFocus(visible.indexOf(tree.parent[node]!));
    } else if (event.key === 'Enter' || event.key === ' ') onSelect(node);
    else handled = false;
    if (handled) event.preventDefault();
  };

  const latest = useRef({ onRowKeyDown, onSelect, onToggle });
  latest.current = { onRowKeyDown, onSelect, onToggle };
  const [handlers] = useState(() => ({
    keyDown: (event: React.KeyboardEvent, position: number) => latest.current.onRowKeyDown(event, position),
    select: (node: number, position: number) => {
      setFocusPosition(position);
      latest.current.onSelect(node);
    },
    toggle: (node: number) => latest.current.onToggle(node),
  }));

  return (
    <div ref={scroller} className="waterfall" role="tree" aria-label="Spans" aria-multiselectable="false">
      <div className="waterfall-axis span-grid" aria-hidden="true">
        <div className="axis-label">Service and span</div>
        <div className="axis-ticks">
          {AXIS_TICKS.map((share) => (
            <span key={share} className={`axis-tick ${share === 1 ? 'last' : ''}`} style={{ left: `${share * 100}%` }}>
              {formatNanos(share * tree.totalNanos)}
            </span>
          ))}
        </div>
        <div className="axis-label">Duration</div>
      </div>
      <div className="waterfall-body" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const node = visible[item.index]!;
          return (
            <SpanRow
              key={node}
              tree={tree}
              node={node}
              position={item.index}
              top={item.start}
              expanded={tree.children[node]!.length > 0 ? !collapsed.has(node) : undefined}
              selected={node === selected}
              focusable={item.index === Math.min(focusPosition, count - 1)}
              handlers={handlers}
            />
          );
        })}
      </div>
    </div>
  );
}

interface SpanRowProps {
  tree: TraceTree;
  node: number;
  position: number;
  top: number;
  /** Undefined for a leaf. */
  expanded: boolean | undefined;
  selected: boolean;
  focusable: boolean;
  handlers: {
    keyDown(event: React.KeyboardEvent, position: number): void;
    select(node: number, position: number): void;
    toggle(node: number): void;
  };
}

const SpanRow = memo(function SpanRow({ tree, node, position, top, expanded, selected, focusable, handlers }: SpanRowProps) {
  const span = tree.spans[node]!;
  const start = tree.startOffset[node]!;
  const critical = tree.critical[node] === 1;
  const orphan = tree.orphan[node] === 1;
  const depth = tree.depth[node]!;
  const duration = span.ended ? formatNanos(span.durationNanos) : 'not ended';
  const color = seriesColor(tree.serviceIndex[node]!);
  // Read after the visible text by screen readers (the row's name is its text).
  const notes = [`starts at ${formatNanos(start)}`, span.error ? 'error' : '', critical ? 'on the critical path' : '', orphan ? 'parent span missing' : ''].filter(Boolean).join(', ');
  const classes = ['span-row', 'span-grid', critical ? 'critical' : '', span.error ? 'failed' : '', selected ? 'selected' : ''].filter(Boolean).join(' ');
  return (
    <div
      role="treeitem"
      aria-level={depth + 1}
      aria-setsize={tree.setSize[node]}
      aria-posinset={tree.positionInSet[node]}
      aria-expanded={expanded}
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      data-position={position}
      className={classes}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => handlers.select(node, position)}
      onKeyDown={(event) => handlers.keyDown(event, position)}
    >
      <div className="span-label" style={{ paddingLeft: `${0.3 + Math.min(depth, MAX_INDENT_LEVEL) * 0.85}rem` }}>
        {expanded === undefined ? (
          <span className="span-toggle leaf" />
        ) : (
          <span
            className="span-toggle"
            data-toggle
            title={expanded ? 'Collapse' : 'Expand'}
            onClick={(event) => {
              event.stopPropagation();
              handlers.toggle(node);
            }}
          >
            {expanded ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
          </span>
        )}
        {span.error ? <AlertTriangle className="span-error-mark" size={14} aria-hidden="true" /> : null}
        {orphan ? <Unlink className="span-orphan-mark" size={13} aria-hidden="true" /> : null}
        <span className="span-service-dot" style={{ backgroundColor: color }} />
        <span className="span-service">{span.service}</span>{' '}
        <span className="span-name">{span.name}</span>
        {expanded === false ? <span className="span-hidden-count muted">+{(tree.subtreeSize[node]! - 1).toLocaleString('en-US')}</span> : null}
      </div>
      <div className="span-timeline">
        <span
          className="span-bar"
          style={{ left: `${(start / tree.totalNanos) * 100}%`, width: `${(span.durationNanos / tree.totalNanos) * 100}%`, backgroundColor: color }}
        />
        {span.events.map((event, index) =>
          event.at ? (
            <span
              key={index}
              className="span-event-mark"
              title={event.name}
              style={{ left: `${(Math.max(0, nanosBetween(tree.traceStart, event.at)) / tree.totalNanos) * 100}%` }}
            />
          ) : null,
        )}
      </div>
      <div className="span-duration">{duration}</div>
      <span className="visually-hidden">, {notes}</span>
    </div>
  );
});
