// Turning failures and times into the words the settings pages show.
import { ApiError } from '../../api/client';

/** The server's own message for an API failure; a plain sentence for anything else. */
export function messageOf(failure: unknown): string {
  if (failure instanceof ApiError) return failure.message;
  return 'Could not reach the server.';
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A time for people, in the browser's zone; "never" for none. */
export function formatTime(iso: string | null | undefined, none = 'never'): string {
  if (!iso) return none;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A `datetime-local` input's value (local time) as an RFC 3339 instant, or null when empty. */
export function instantOfLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
