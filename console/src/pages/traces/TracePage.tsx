// One trace: its spans as a waterfall (tree, shared time axis, errors, the critical path,
// collapsible subtrees), the chosen span's details, and the logs that carry the trace's id. The
// URL names the trace, the dataset it was seen in and the time range that bounds the lookup;
// relative bounds are pinned to absolute times on arrival, so the address can be shared.
import { ChevronsDownUp, ChevronsUpDown, Search, SearchCode } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { traceSpansApl } from '../../api/traces';
import { formatTime } from '../query/cells';
import { handOffSearch } from '../query/hand-off';
import { formatCount, formatNanos } from './format';
import { SpanDetails } from './SpanDetails';
import { visibleSpans } from './span-tree';
import { absoluteBound, isAbsoluteBound } from './trace-link';
import { TraceLegend } from './TraceLegend';
import { TraceLogs } from './TraceLogs';
import { useTrace } from './useTrace';
import { Waterfall } from './Waterfall';
import './traces.css';

const DEFAULT_START = 'now-24h';
const DAY_MS = 86_400_000;

export function TracePage() {
  const { org = '', traceId: rawTraceId = '' } = useParams();
  const traceId = rawTraceId.toLowerCase();
  const [search, setSearch] = useSearchParams();
  const dataset = search.get('dataset') || undefined;
  const start = search.get('start') || DEFAULT_START;
  const end = search.get('end') || 'now';
  const pinned = isAbsoluteBound(start) && isAbsoluteBound(end);

  useEffect(() => {
    if (pinned) return;
    const now = Date.now();
    const next = new URLSearchParams(search);
    next.set('start', absoluteBound(start, now));
    next.set('end', absoluteBound(end, now));
    setSearch(next, { replace: true });
  }, [pinned, search, setSearch, start, end]);

  const range = useMemo(() => (pinned ? { start, end } : undefined), [pinned, start, end]);
  const { spans, logs } = useTrace(traceId, dataset, range);
  const tree = spans.phase === 'done' ? spans.tree : undefined;
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [selected, setSelected] = useState<number | undefined>();

  useEffect(() => {
    setCollapsed(new Set());
    setSelected(undefined);
  }, [tree]);

  const visible = useMemo(() => (tree ? visibleSpans(tree, collapsed) : []), [tree, collapsed]);
  const spanIds = useMemo(() => new Set(tree?.spans.map((span) => span.spanId) ?? []), [tree]);

  const toggle = (node: number) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(node)) next.delete(node);
      else next.add(node);
      return next;
    });

  /** Shows a span by id: its folded ancestors unfold. */
  const selectSpanById = (spanId: string) => {
    if (!tree) return;
    const node = tree.spans.findIndex((span) => span.spanId === spanId);
    if (node === -1) return;
    setCollapsed((current) => {
      const next = new Set(current);
      for (let ancestor = tree.parent[node]!; ancestor >= 0; ancestor = tree.parent[ancestor]!) next.delete(ancestor);
      return next.size === current.size ? current : next;
    });
    setSelected(node);
  };

  const widen = () => {
    const next = new URLSearchParams(search);
    next.set('start', new Date(new Date(start).getTime() - DAY_MS).toISOString());
    next.set('end', new Date(new Date(end).getTime() + DAY_MS).toISOString());
    setSearch(next);
  };

  // The spans' query, on the Query page, when they came from one dataset.
  const spansDataset = spans.phase === 'done' && spans.datasets.length === 1 ? spans.datasets[0] : undefined;
  const queryLink = spansDataset ? `/${encodeURIComponent(org)}/query?${handOffSearch({ apl: traceSpansApl(spansDataset, traceId), start, end })}` : undefined;

  return (
    <section className="page trace-page" aria-labelledby="trace-title">
      <div className="page-header">
        <h1 id="trace-title">
          Trace <span className="mono trace-id">{traceId}</span>
        </h1>
        <div className="toolbar">
          <button type="button" className="button" disabled={!tree} onClick={() => setCollapsed(new Set())}>
            <ChevronsUpDown size={16} aria-hidden="true" />
            Expand all
          </button>
          <button
            type="button"
            className="button"
            disabled={!tree}
            onClick={() => tree && setCollapsed(new Set(tree.order.filter((node) => tree.children[node]!.length > 0 && tree.parent[node]! >= 0)))}
          >
            <ChevronsDownUp size={16} aria-hidden="true" />
            Collapse all
          </button>
          <button type="button" className="button" disabled={!pinned} onClick={widen}>
            <Search size={16} aria-hidden="true" />
            Search a day wider
          </button>
          {queryLink ? (
            <Link className="button" to={queryLink}>
              <SearchCode size={16} aria-hidden="true" />
              Open in Query
            </Link>
          ) : null}
        </div>
      </div>
      <p className="trace-summary" role="status">
        {spans.phase === 'loading' ? 'Loading spans…' : null}
        {tree ? (
          <>
            <strong>{formatCount(tree.spans.length, 'span', 'spans')}</strong>
            {' · '}
            {formatCount(tree.services.length, 'service', 'services')}
            {' · '}
            {formatNanos(tree.spans.length > 0 ? tree.totalNanos : 0)}
            {' · '}
            <span className={tree.errorCount > 0 ? 'status-error' : undefined}>{formatCount(tree.errorCount, 'error', 'errors')}</span>
            {tree.spans.length > 0 ? ` · started ${formatTime(new Date(tree.traceStart.ms).toISOString(), 'local')}` : ''}
            {spans.phase === 'done' && spans.truncated ? ` · only ${formatCount(tree.spans.length, 'span', 'spans')} of a larger trace are shown` : ''}
          </>
        ) : null}
      </p>
      <p className="muted trace-scope">
        In {spans.phase === 'done' ? spans.datasets.join(', ') || 'no dataset with spans' : (dataset ?? 'every dataset with spans')}, between{' '}
        {pinned ? `${formatTime(start, 'local')} and ${formatTime(end, 'local')}` : '…'}
      </p>
      {spans.phase === 'error' ? (
        <div className="error-box" role="alert">
          {spans.message}
        </div>
      ) : null}
      <div className="trace-layout">
        <div className="trace-main">
          <TraceLegend />
          {tree && tree.spans.length === 0 ? <p className="muted">No spans of this trace in the time range. Search a wider range, or check the dataset.</p> : null}
          {tree && tree.spans.length > 0 ? (
            <Waterfall tree={tree} visible={visible} collapsed={collapsed} selected={selected} onToggle={toggle} onSelect={setSelected} />
          ) : null}
        </div>
        <div className="trace-side">
          {tree && selected !== undefined && selected < tree.spans.length ? (
            <SpanDetails key={selected} tree={tree} node={selected} traceId={traceId} range={range ?? { start, end }} onSelectSpan={selectSpanById} onClose={() => setSelected(undefined)} />
          ) : tree && tree.spans.length > 0 ? (
            <p className="muted">Choose a span to see its attributes, events and links.</p>
          ) : null}
          <TraceLogs state={logs} spanIds={spanIds} traceStart={tree && tree.spans.length > 0 ? tree.traceStart : undefined} onSelectSpan={selectSpanById} />
        </div>
      </div>
    </section>
  );
}
