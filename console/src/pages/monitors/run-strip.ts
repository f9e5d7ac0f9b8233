// The cells of a monitor's strip of recent runs, from what the API keeps: the run grid (every
// `intervalMinutes`, up to the latest run) and the alert transitions of the history. Each cell
// is one run slot: whether an alert opened in it, stayed open through it, closed in it, or all
// was quiet; slots before the monitor existed are empty. The API keeps transitions, not every
// run's outcome, so a quiet cell means "no alert open", whatever the run's value was.

export type CellState = 'none' | 'ok' | 'opened' | 'open' | 'closed' | 'error';

export interface StripCell {
  /** The slot's end (epoch ms): the run that closed it. */
  at: number;
  state: CellState;
  /** Alerts that changed in the slot, as `name: open|closed`. */
  changes: string[];
}

export interface StripInput {
  intervalMinutes: number;
  createdAt: string;
  /** The latest run (the strip ends there), or null before the first run. */
  lastRunAt: string | null;
  lastError: string | null;
  /** Alert transitions, oldest first. */
  history: { name: string; timestamp: string; state: 'open' | 'closed' }[];
}

export function stripCells(input: StripInput, count: number): StripCell[] {
  if (!input.lastRunAt) return [];
  const interval = input.intervalMinutes * 60_000;
  const last = new Date(input.lastRunAt).getTime();
  const created = new Date(input.createdAt).getTime();
  const transitions = input.history.map((entry) => ({ ...entry, at: new Date(entry.timestamp).getTime() })).sort((a, b) => a.at - b.at);
  const openAt = (time: number) => {
    const state = new Map<string, boolean>();
    for (const entry of transitions) {
      if (entry.at > time) break;
      state.set(entry.name, entry.state === 'open');
    }
    return [...state.values()].some(Boolean);
  };
  const cells: StripCell[] = [];
  for (let index = count - 1; index >= 0; index--) {
    const end = last - index * interval;
    const start = end - interval;
    if (end < created) {
      cells.push({ at: end, state: 'none', changes: [] });
      continue;
    }
    const inSlot = transitions.filter((entry) => entry.at > start && entry.at <= end);
    const changes = inSlot.map((entry) => `${entry.name}: ${entry.state}`);
    let state: CellState;
    if (inSlot.some((entry) => entry.state === 'open')) state = 'opened';
    else if (openAt(end)) state = 'open';
    else if (inSlot.length > 0) state = 'closed';
    else state = 'ok';
    cells.push({ at: end, state, changes });
  }
  if (input.lastError && cells.length > 0) cells[cells.length - 1] = { ...cells[cells.length - 1]!, state: 'error' };
  return cells;
}

export const CELL_WORDS: Record<CellState, string> = {
  none: 'not created yet',
  ok: 'no alert open',
  opened: 'alert opened',
  open: 'alert open',
  closed: 'alert closed',
  error: 'the query failed',
};

/** A one-line summary for screen readers: counts of each state. */
export function stripSummary(cells: StripCell[]): string {
  const counts = new Map<CellState, number>();
  for (const cell of cells) counts.set(cell.state, (counts.get(cell.state) ?? 0) + 1);
  const parts = [...counts].filter(([state]) => state !== 'none').map(([state, n]) => `${n} ${CELL_WORDS[state]}`);
  return `Last ${cells.filter((cell) => cell.state !== 'none').length} runs: ${parts.join(', ') || 'none yet'}`;
}
