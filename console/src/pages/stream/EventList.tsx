// The tail's lines, newest at the bottom, virtualized so two thousand events cost only the rows
// on screen. It stays pinned to the newest line unless the reader scrolled up to look at older
// ones. It is a named log region: screen readers hear new lines politely, and not at all while
// events come too fast to follow (the page then announces a summary instead).
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { LiveEvent } from '../../api/live';
import { compactFields, formatTime } from './format';
import type { TailLine } from './tail-buffer';

interface EventListProps {
  lines: readonly TailLine[];
  wrap: boolean;
  utc: boolean;
  announce: boolean;
  openedKey: number | undefined;
  onOpen(key: number, event: LiveEvent): void;
  emptyText: string;
}

/** How close to the bottom (in pixels) still counts as following the newest line. */
const PINNED_SLACK = 24;

export function EventList({ lines, wrap, utc, announce, openedKey, onOpen, emptyText }: EventListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 26,
    getItemKey: (index) => lines[index]!.key,
    overscan: 12,
  });

  useEffect(() => {
    virtualizer.measure();
  }, [wrap, virtualizer]);

  // Following the newest line: jump to the end after each render that added lines.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (pinned.current && element) element.scrollTop = element.scrollHeight;
  }, [lines]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight <= PINNED_SLACK;
  };

  return (
    <div
      ref={scroller}
      className={`stream-list${wrap ? ' wrap' : ''}`}
      role="log"
      aria-label="Live events"
      aria-live={announce ? 'polite' : 'off'}
      aria-relevant="additions"
      tabIndex={0}
      onScroll={onScroll}
    >
      {lines.length === 0 ? (
        <p className="stream-empty muted">{emptyText}</p>
      ) : (
        <div className="stream-list-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const line = lines[item.index]!;
            return (
              <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="stream-row" style={{ transform: `translateY(${item.start}px)` }}>
                <LineContent line={line} utc={utc} opened={openedKey === line.key} onOpen={onOpen} />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

interface LineContentProps {
  line: TailLine;
  utc: boolean;
  opened: boolean;
  onOpen(key: number, event: LiveEvent): void;
}

/** One line, rendered again only when it or the time zone changes (not when it moves). */
const LineContent = memo(function LineContent({ line, utc, opened, onOpen }: LineContentProps) {
  if (line.kind === 'skipped') {
    return <div className="stream-skipped">{line.count === 1 ? '1 event skipped' : `${line.count.toLocaleString()} events skipped`}</div>;
  }
  return (
    <button
      type="button"
      className={`stream-line level-${line.level}${opened ? ' opened' : ''}`}
      data-level={line.level}
      aria-pressed={opened}
      onClick={() => onOpen(line.key, line.event)}
    >
      <time className="stream-time" dateTime={line.event.time}>
        {formatTime(line.event.time, utc)}
      </time>
      <span className={`level-badge level-${line.level}`}>{line.level === 'none' ? '-' : line.level}</span>
      <span className="stream-fields">
        {compactFields(line.event.data).map((field) => (
          <span key={field.name} className="stream-field">
            <span className="stream-field-name">{field.name}</span>=<span className="stream-field-value">{field.value}</span>{' '}
          </span>
        ))}
      </span>
    </button>
  );
});
