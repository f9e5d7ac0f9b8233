// The rows of an answer as an ARIA grid, virtualized: only the rows in view (and a few around
// them) are in the DOM and formatted, so 65,000 rows scroll smoothly. Two views: a column per
// field, or one event per line (time, then `field=value` text). Arrow keys move between rows,
// Enter or a click opens one.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { rowCount, type ResultTable } from '../../api/query';
import { compactEventText, formatCell, formatTime, TIME_FIELD } from './cells';
import { isTraceId, isTraceIdField } from '../traces/trace-link';
import { TraceLink } from '../traces/TraceLink';
import type { ResultsView, TimeZoneChoice } from './url-state';

const ROW_HEIGHT = 28;

export interface ResultsGridProps {
  table: ResultTable;
  view: ResultsView;
  timeZone: TimeZoneChoice;
  hiddenFields: ReadonlySet<string>;
  /** The row open in the event panel. */
  selectedRow: number | undefined;
  onOpen(row: number): void;
}

interface GridColumn {
  key: string;
  label: string;
  width: number;
  cell(row: number): string;
  /** Drawn instead of the text when set (a trace id as a link to its trace). */
  render?(row: number): React.ReactNode;
}

export function ResultsGrid({ table, view, timeZone, hiddenFields, selectedRow, onOpen }: ResultsGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = rowCount(table);
  const [focusRow, setFocusRow] = useState(0);
  const [focusWanted, setFocusWanted] = useState(false);

  const columns = useMemo<GridColumn[]>(() => {
    const timeIndex = table.fields.findIndex((field) => field.name === TIME_FIELD);
    if (view === 'events') {
      const time: GridColumn[] =
        timeIndex >= 0 ? [{ key: TIME_FIELD, label: TIME_FIELD, width: 250, cell: (row) => formatTime(table.columns[timeIndex]?.[row], timeZone) }] : [];
      return [...time, { key: '\u0000event', label: 'Event', width: 0, cell: (row) => compactEventText(table, row) }];
    }
    return table.fields.flatMap((field, index) =>
      hiddenFields.has(field.name)
        ? []
        : [
            {
              key: field.name,
              label: field.name,
              width: field.name === TIME_FIELD ? 250 : 170,
              cell: (row: number) => formatCell(field.name, field.type, table.columns[index]?.[row], timeZone),
              ...(isTraceIdField(field.name) ? { render: (row: number) => traceIdCell(table, index, row) } : {}),
            },
          ],
    );
  }, [table, view, timeZone, hiddenFields]);

  const template = columns.map((column) => (column.width ? `${column.width}px` : 'minmax(20rem, 1fr)')).join(' ');
  const minWidth = columns.reduce((sum, column) => sum + (column.width || 320), 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });

  // A new answer starts at the top.
  useEffect(() => {
    setFocusRow(0);
    scroller.current?.scrollTo({ top: 0 });
  }, [table]);

  // The panel moved to another row: keep it in view.
  useEffect(() => {
    if (selectedRow === undefined) return;
    setFocusRow(selectedRow);
    virtualizer.scrollToIndex(selectedRow, { align: 'auto' });
  }, [selectedRow, virtualizer]);

  useEffect(() => {
    if (!focusWanted) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-row="${focusRow}"]`);
    if (element) {
      element.focus({ preventScroll: true });
      setFocusWanted(false);
    }
  });

  const moveFocus = (row: number) => {
    const next = Math.max(0, Math.min(count - 1, row));
    setFocusRow(next);
    setFocusWanted(true);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onRowKeyDown = (event: React.KeyboardEvent, row: number) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: row + 1, ArrowUp: row - 1, PageDown: row + page, PageUp: row - page, Home: 0, End: count - 1 };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      moveFocus(target);
      // With the event panel open, the panel follows the keyboard.
      if (selectedRow !== undefined) onOpen(Math.max(0, Math.min(count - 1, target)));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(row);
    }
  };

  const latest = useRef({ onOpen, onRowKeyDown });
  latest.current = { onOpen, onRowKeyDown };
  // Stable callbacks, so rows that stay in view are not drawn again while scrolling.
  const [onOpenRow] = useState(() => (row: number) => {
    setFocusRow(row);
    latest.current.onOpen(row);
  });
  const [onRowKeyDownStable] = useState(() => (event: React.KeyboardEvent, row: number) => latest.current.onRowKeyDown(event, row));

  return (
    <div
      ref={scroller}
      className={`results-grid ${view === 'events' ? 'events-view' : 'table-view'}`}
      role="grid"
      aria-label="Results"
      aria-rowcount={count + 1}
      aria-colcount={columns.length}
      aria-readonly="true"
    >
      <div role="rowgroup" className="grid-head">
        <div role="row" aria-rowindex={1} className="grid-row" style={{ gridTemplateColumns: template, minWidth }}>
          {columns.map((column, index) => (
            <div key={column.key} role="columnheader" aria-colindex={index + 1} className="grid-cell" title={column.label}>
              {column.label}
            </div>
          ))}
        </div>
      </div>
      <div role="rowgroup" className="grid-body" style={{ height: virtualizer.getTotalSize(), minWidth }}>
        {virtualizer.getVirtualItems().map((item) => (
          <GridRow
            key={item.key}
            row={item.index}
            top={item.start}
            columns={columns}
            template={template}
            minWidth={minWidth}
            selected={item.index === selectedRow}
            focusable={item.index === Math.min(focusRow, count - 1)}
            onOpen={onOpenRow}
            onKeyDown={onRowKeyDownStable}
          />
        ))}
      </div>
    </div>
  );
}

interface GridRowProps {
  row: number;
  top: number;
  columns: GridColumn[];
  template: string;
  minWidth: number;
  selected: boolean;
  focusable: boolean;
  onOpen(row: number): void;
  onKeyDown(event: React.KeyboardEvent, row: number): void;
}

const GridRow = memo(function GridRow({ row, top, columns, template, minWidth, selected, focusable, onOpen, onKeyDown }: GridRowProps) {
  return (
    <div
      role="row"
      data-row={row}
      aria-rowindex={row + 2}
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      className="grid-row body-row"
      style={{ gridTemplateColumns: template, minWidth, transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(row)}
      onKeyDown={(event) => onKeyDown(event, row)}
    >
      {columns.map((column, index) => (
        <div key={column.key} role="gridcell" aria-colindex={index + 1} className="grid-cell">
          {column.render ? column.render(row) : column.cell(row)}
        </div>
      ))}
    </div>
  );
});

/** A trace id cell: a link to the trace, looked up in the answer's dataset when it has one. */
function traceIdCell(table: ResultTable, index: number, row: number): React.ReactNode {
  const value = table.columns[index]?.[row];
  if (!isTraceId(value)) return formatCell('', 'string', value, 'UTC');
  const timeIndex = table.fields.findIndex((field) => field.name === TIME_FIELD);
  const dataset = table.sources.length === 1 ? table.sources[0]!.name : undefined;
  return <TraceLink traceId={value} dataset={dataset} eventTime={timeIndex >= 0 ? table.columns[timeIndex]?.[row] : undefined} />;
}
