// A monitor's recent runs as a row of small coloured cells (see run-strip.ts for what each
// colour means), each with its time and changes in its tooltip.
import { wallTime } from './format';
import { CELL_WORDS, type StripInput, stripCells, stripSummary } from './run-strip';

export function RunStrip({ input, count = 30 }: { input: StripInput; count?: number }) {
  const cells = stripCells(input, count);
  if (cells.length === 0) return <span className="muted">No run yet</span>;
  return (
    <div className="run-strip" role="img" aria-label={stripSummary(cells)}>
      {cells.map((cell) => (
        <span
          key={cell.at}
          className={`run-cell run-${cell.state}`}
          data-state={cell.state}
          title={`${wallTime(new Date(cell.at).toISOString())}: ${CELL_WORDS[cell.state]}${cell.changes.length ? `\n${cell.changes.join('\n')}` : ''}`}
        />
      ))}
    </div>
  );
}
