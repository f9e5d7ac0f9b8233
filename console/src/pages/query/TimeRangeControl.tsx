// The time range of the query: a quick range, or from/to bounds typed as relative expressions
// (`now-2h`) or wall times in the chosen zone, and the zone itself (local or UTC).
import { Clock } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { displayBound, parseBound, QUICK_RANGES, quickRangeOf } from './time-range';
import type { TimeZoneChoice } from './url-state';

export interface TimeRangeControlProps {
  start: string;
  end: string;
  timeZone: TimeZoneChoice;
  onChange(range: { start: string; end: string }): void;
  onTimeZoneChange(zone: TimeZoneChoice): void;
}

export function TimeRangeControl({ start, end, timeZone, onChange, onTimeZoneChange }: TimeRangeControlProps) {
  const id = useId();
  const [from, setFrom] = useState(() => displayBound(start, timeZone));
  const [to, setTo] = useState(() => displayBound(end, timeZone));
  const [problem, setProblem] = useState<string | undefined>();

  // Each bound follows its own value only: applying a new start (on leaving its box) must not
  // wipe what is being typed into the end box meanwhile.
  useEffect(() => {
    setFrom(displayBound(start, timeZone));
    setProblem(undefined);
  }, [start, timeZone]);
  useEffect(() => {
    setTo(displayBound(end, timeZone));
    setProblem(undefined);
  }, [end, timeZone]);

  const apply = () => {
    const nextStart = parseBound(from, timeZone);
    const nextEnd = parseBound(to, timeZone);
    if (!nextStart || !nextEnd) {
      setProblem(`Use now, now-2h, or a time like 2026-01-31 14:00:00 (${timeZone === 'UTC' ? 'UTC' : 'local time'})`);
      return;
    }
    setProblem(undefined);
    if (nextStart !== start || nextEnd !== end) onChange({ start: nextStart, end: nextEnd });
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    }
  };

  return (
    <div role="group" aria-label="Time range" className="time-range">
      <Clock size={16} aria-hidden="true" className="muted" />
      <select
        aria-label="Quick range"
        value={quickRangeOf(start, end) ?? ''}
        onChange={(event) => event.target.value && onChange({ start: event.target.value, end: 'now' })}
      >
        <option value="">Custom</option>
        {QUICK_RANGES.map((range) => (
          <option key={range.start} value={range.start}>
            {range.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-from`} className="visually-hidden">
        From
      </label>
      <input
        id={`${id}-from`}
        className="time-bound mono"
        value={from}
        onChange={(event) => setFrom(event.target.value)}
        onBlur={apply}
        onKeyDown={onKeyDown}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      <span aria-hidden="true" className="muted">
        →
      </span>
      <label htmlFor={`${id}-to`} className="visually-hidden">
        To
      </label>
      <input
        id={`${id}-to`}
        className="time-bound mono"
        value={to}
        onChange={(event) => setTo(event.target.value)}
        onBlur={apply}
        onKeyDown={onKeyDown}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      <button
        type="button"
        className="button small"
        aria-pressed={timeZone === 'UTC'}
        title="Show and enter times in UTC instead of local time"
        onClick={() => onTimeZoneChange(timeZone === 'UTC' ? 'local' : 'UTC')}
      >
        UTC
      </button>
      {problem ? (
        <span id={`${id}-problem`} className="time-range-problem" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
