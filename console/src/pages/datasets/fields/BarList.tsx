// Horizontal bars for counts by label (top values, histogram buckets), widths set through the
// CSSOM (React's style prop), as the strict CSP requires.
export interface Bar {
  label: string;
  value: number;
}

export function BarList({ bars, label }: { bars: Bar[]; label: string }) {
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  if (bars.length === 0) return <p className="muted">No events hold this field in the time range.</p>;
  return (
    <ul className="bar-list" aria-label={label}>
      {bars.map((bar, index) => (
        <li key={`${bar.label}-${index}`}>
          <span className="bar-label" title={bar.label}>
            {bar.label}
          </span>
          <span className="bar-track" aria-hidden="true">
            <span className="bar-fill" style={{ display: 'block', width: `${(bar.value / largest) * 100}%` }} />
          </span>
          <span className="bar-value">{bar.value.toLocaleString('en-US')}</span>
        </li>
      ))}
    </ul>
  );
}
