// Which sections of a dashboard this viewer has folded, kept in this browser's localStorage per
// dashboard (as Axiom keeps it per browser), so folding changes nothing for other viewers. A
// section this viewer never touched starts as its `collapsedByDefault` says.
import { useCallback, useState } from 'react';
import type { DashboardChart } from '../../api/dashboards';

const keyOf = (dashboardUid: string) => `eventdeck.dashboard-folds.${dashboardUid}`;

function readFolds(dashboardUid: string): Record<string, boolean> {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(dashboardUid)) ?? '{}') as unknown;
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
    return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
  } catch {
    return {};
  }
}

export function useFoldedSections(dashboardUid: string): { isFolded(section: DashboardChart): boolean; setFolded(sectionId: string, folded: boolean): void } {
  const [folds, setFolds] = useState<Record<string, boolean>>(() => readFolds(dashboardUid));
  const isFolded = useCallback((section: DashboardChart) => folds[section.id] ?? section.collapsedByDefault === true, [folds]);
  const setFolded = useCallback(
    (sectionId: string, folded: boolean) =>
      setFolds((current) => {
        const next = { ...current, [sectionId]: folded };
        try {
          localStorage.setItem(keyOf(dashboardUid), JSON.stringify(next));
        } catch {
          // Storage full or denied: the fold lasts for this visit only.
        }
        return next;
      }),
    [dashboardUid],
  );
  return { isFolded, setFolded };
}
