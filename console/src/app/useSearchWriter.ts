// The address's query, and a writer for it that never loses a change. React Router's own writer
// starts from the query the last render saw, so two changes made before React renders between
// them (a filter, then another; a range, then a run) keep only the second. Here a change starts
// from the last one written while no render has happened since.
import { useCallback, useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router';

export type SearchWriter = (change: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => void;

export function useSearchWriter(): [URLSearchParams, SearchWriter] {
  const [search, setSearch] = useSearchParams();
  const written = useRef<{ from: URLSearchParams; next: URLSearchParams } | undefined>(undefined);
  const write = useCallback<SearchWriter>(
    (change, options) => {
      const current = written.current?.from === search ? written.current.next : search;
      const next = change(current);
      written.current = { from: search, next };
      setSearch(next, options);
    },
    [search, setSearch],
  );
  return [search, write];
}
