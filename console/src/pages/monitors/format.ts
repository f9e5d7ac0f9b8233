// How the monitors pages write times and durations: local wall times to the second, and
// "3 min ago" style ages for the list.

const pad = (value: number) => String(value).padStart(2, '0');

/** `2026-11-27 14:05:09` in the browser's zone; an em dash when there is no time. */
export function wallTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** How long ago (or in how long) `iso` is from `now`, coarsely. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const ms = new Date(iso).getTime() - now;
  const ahead = ms > 0;
  const seconds = Math.round(Math.abs(ms) / 1000);
  const text =
    seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${Math.round(seconds / 60)} min` : seconds < 86_400 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86_400)} d`;
  return ahead ? `in ${text}` : `${text} ago`;
}

/** `every 5 min`, `every 2 h`, `every day`. */
export function everyText(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? 'every day' : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} h`;
  return minutes === 1 ? 'every minute' : `every ${minutes} min`;
}

export const TYPE_LABELS: Record<string, string> = { Threshold: 'Threshold', MatchEvent: 'Match', AnomalyDetection: 'Anomaly' };
