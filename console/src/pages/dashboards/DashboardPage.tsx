// One dashboard: its charts drawn from one query batch over the dashboard's time window (with
// refresh, comparison period, filters and a shared crosshair), and its editor: add, move, resize,
// change and remove charts, add and arrange collapsible sections, edit the JSON, and save over
// the version that was loaded, with a conflict dialog when someone else saved meanwhile. Charts
// of sections this viewer folded are neither drawn nor queried.
import { Braces, Pencil, Plus, RefreshCw, Rows3, Save } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useSearchWriter } from '../../app/useSearchWriter';
import { ApiError } from '../../api/client';
import { type DashboardChart, type DashboardDocument, type DashboardResource, getDashboard, saveDashboard, VersionConflict } from '../../api/dashboards';
import { useSession } from '../../app/session-context';
import { TimeRangeControl } from '../query/TimeRangeControl';
import type { TimeZoneChoice } from '../query/url-state';
import { ChartForm } from './ChartForm';
import type { DashboardContext } from './charts/panel-types';
import { ConflictDialog } from './ConflictDialog';
import { DashboardGrid } from './DashboardGrid';
import { DashboardSettings } from './DashboardSettings';
import { freshChartId, withChart, withChartReplaced, withoutChart, withPositions } from './document';
import { useFoldedSections } from './fold-state';
import { hiddenChartIds, withoutSection, withSection, withSectionChanged, withSectionMoved } from './sections';
import { dashboardParameters, FilterBar, smartFilterIds } from './FilterBar';
import { JsonDocumentEditor } from './JsonDocumentEditor';
import { AGAINST_CHOICES, requestBound, storedBound } from './time-window';
import { useDashboardQueries } from './useDashboardQueries';
import './dashboards.css';

const REFRESH_CHOICES = [
  { value: 15, label: 'Every 15 seconds' },
  { value: 60, label: 'Every minute' },
  { value: 300, label: 'Every 5 minutes' },
];

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Conflict {
  message: string;
  currentVersion: number | undefined;
}

export function DashboardPage() {
  const { uid = '' } = useParams();
  const [search, writeSearch] = useSearchWriter();
  const { session } = useSession();
  const [loaded, setLoaded] = useState<DashboardResource | undefined>();
  const [draft, setDraft] = useState<DashboardDocument | undefined>();
  const [loadProblem, setLoadProblem] = useState<{ message: string; status?: number } | undefined>();
  const [saveProblem, setSaveProblem] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [savedNote, setSavedNote] = useState<string | undefined>();
  const [conflict, setConflict] = useState<Conflict | undefined>();
  const [chartForm, setChartForm] = useState<{ chart: DashboardChart; mode: 'add' | 'change' } | undefined>();
  const [jsonOpen, setJsonOpen] = useState(false);
  const [timeZone, setTimeZone] = useState<TimeZoneChoice>('local');
  const [filterValues, setFilterValues] = useState<Record<string, string>>({});
  const editing = search.get('edit') === '1';
  const { isFolded, setFolded } = useFoldedSections(uid);

  const load = useCallback(async () => {
    try {
      const resource = await getDashboard(uid);
      setLoaded(resource);
      setDraft(structuredClone(resource.dashboard));
      setLoadProblem(undefined);
    } catch (error) {
      setLoadProblem({ message: messageOf(error), ...(error instanceof ApiError ? { status: error.status } : {}) });
    }
  }, [uid]);

  useEffect(() => {
    void load();
  }, [load]);

  const setEditing = (on: boolean) =>
    writeSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set('edit', '1');
        else next.delete('edit');
        return next;
      },
      { replace: true },
    );

  const charts = draft?.charts ?? [];
  // Folding is for viewing: the editor shows every section open.
  const hidden = useMemo(() => (draft && !editing ? hiddenChartIds(draft, isFolded) : new Set<string>()), [draft, editing, isFolded]);
  const shownCharts = useMemo(() => charts.filter((chart) => !hidden.has(chart.id)), [charts, hidden]);
  const start = draft ? requestBound(draft.timeWindowStart) : 'now-1h';
  const end = draft ? requestBound(draft.timeWindowEnd) : 'now';
  const { results, refresh, running, problem: batchProblem } = useDashboardQueries({
    charts: shownCharts,
    start,
    end,
    against: draft?.against,
    refreshSeconds: draft?.refreshTime ?? 0,
    filterValues,
  });

  const update = useCallback((change: (document: DashboardDocument) => DashboardDocument) => setDraft((current) => (current ? change(current) : current)), []);

  const setRange = useCallback((range: { start: string; end: string }) => update((document) => ({ ...document, timeWindowStart: storedBound(range.start), timeWindowEnd: storedBound(range.end) })), [update]);

  const context = useMemo<DashboardContext>(
    () => ({
      syncKey: `dashboard-${uid}`,
      window: { start, end },
      timeZone,
      onSelectRange: (startSeconds, endSeconds) => setRange({ start: new Date(startSeconds * 1000).toISOString(), end: new Date(endSeconds * 1000).toISOString() }),
      onAnnotationAdded: refresh,
      filterValues,
      onFilterChange: (name, value) => setFilterValues((current) => ({ ...current, [name]: value })),
    }),
    [uid, start, end, timeZone, setRange, refresh, filterValues],
  );

  const parameters = useMemo(() => dashboardParameters(charts).filter((parameter) => !smartFilterIds(charts).has(parameter.name)), [charts]);
  const dirty = !!loaded && !!draft && JSON.stringify(loaded.dashboard) !== JSON.stringify(draft);

  const save = async (overwrite = false) => {
    if (!loaded || !draft) return;
    setSaving(true);
    setSaveProblem(undefined);
    setSavedNote(undefined);
    try {
      const saved = await saveDashboard(uid, draft, loaded.version, overwrite);
      setLoaded(saved);
      setDraft(structuredClone(saved.dashboard));
      setConflict(undefined);
      setSavedNote(`Saved version ${saved.version}`);
    } catch (error) {
      if (error instanceof VersionConflict) setConflict({ message: error.message, currentVersion: error.currentVersion });
      else setSaveProblem(messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  if (loadProblem && !loaded) {
    return (
      <section className="page">
        <h1>Dashboard</h1>
        <p className="error-box" role="alert">
          {loadProblem.message}
        </p>
        <Link to="..">All dashboards</Link>
      </section>
    );
  }
  if (!loaded || !draft) {
    return (
      <section className="page">
        <h1>Dashboard</h1>
        <p className="muted" role="status">
          Loading…
        </p>
      </section>
    );
  }

  return (
    <section className="page dashboard-page">
      <div className="page-header">
        <h1>{draft.name || 'Untitled dashboard'}</h1>
        {editing ? <span className="dashboard-badge">Editing</span> : null}
        <div className="toolbar">
          <TimeRangeControl start={start} end={end} timeZone={timeZone} onChange={setRange} onTimeZoneChange={setTimeZone} />
          <label className="dashboard-inline-label">
            <span className="visually-hidden">Refresh rate</span>
            <select aria-label="Refresh rate" value={draft.refreshTime} onChange={(event) => update((document) => ({ ...document, refreshTime: Number(event.target.value) }))}>
              {REFRESH_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <select
            aria-label="Compare with"
            value={draft.against ?? ''}
            onChange={(event) =>
              update((document) => {
                const next: DashboardDocument = { ...document, against: event.target.value };
                if (!event.target.value) delete next.against;
                return next;
              })
            }
          >
            {AGAINST_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          <button type="button" className="button" onClick={refresh} disabled={running} aria-label="Refresh charts">
            <RefreshCw size={16} aria-hidden="true" /> Refresh
          </button>
          {editing ? (
            <>
              <button type="button" className="button" onClick={() => setChartForm({ chart: { id: freshChartId(draft), type: 'TimeSeries', query: { apl: '' } }, mode: 'add' })}>
                <Plus size={16} aria-hidden="true" /> Add chart
              </button>
              <button type="button" className="button" onClick={() => update((document) => withSection(document, 'New section'))}>
                <Rows3 size={16} aria-hidden="true" /> Add section
              </button>
              <button type="button" className="button" onClick={() => setJsonOpen(true)}>
                <Braces size={16} aria-hidden="true" /> Edit JSON
              </button>
              <button type="button" className="button primary" onClick={() => void save()} disabled={saving}>
                <Save size={16} aria-hidden="true" /> Save
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setDraft(structuredClone(loaded.dashboard));
                  setEditing(false);
                }}
              >
                {dirty ? 'Discard changes' : 'Done'}
              </button>
            </>
          ) : (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              <Pencil size={16} aria-hidden="true" /> Edit dashboard
            </button>
          )}
        </div>
      </div>
      {draft.description && !editing ? <p className="muted">{draft.description}</p> : null}
      {editing ? <DashboardSettings document={draft} currentUserId={session?.user.id} onChange={(next) => setDraft(next)} /> : null}
      <div role="status" className="dashboard-status">
        {savedNote ? <span>{savedNote}</span> : null}
        {editing && dirty ? <span className="muted">Unsaved changes</span> : null}
      </div>
      {saveProblem ? (
        <p className="error-box" role="alert">
          {saveProblem}
        </p>
      ) : null}
      {batchProblem ? (
        <p className="error-box" role="alert">
          {batchProblem}
        </p>
      ) : null}
      <FilterBar parameters={parameters} values={filterValues} onChange={context.onFilterChange} />
      {draft.charts.length === 0 ? <p className="muted">This dashboard has no charts yet. {editing ? 'Use "Add chart" to add one.' : 'Edit it to add charts.'}</p> : null}
      <DashboardGrid
        document={draft}
        editing={editing}
        results={results}
        context={context}
        onPositions={(positions) => update((document) => withPositions(document, positions))}
        onOptions={(chart) => setChartForm({ chart, mode: 'change' })}
        onRemove={(chartId) => update((document) => withoutChart(document, chartId))}
        hidden={hidden}
        isFolded={isFolded}
        onToggleSection={(section) => setFolded(section.id, !isFolded(section))}
        onSectionChange={(sectionId, change) => update((document) => withSectionChanged(document, sectionId, change))}
        onSectionMove={(sectionId, direction) => update((document) => withSectionMoved(document, sectionId, direction))}
        onSectionDelete={(sectionId, withCharts) => update((document) => withoutSection(document, sectionId, withCharts))}
      />
      {chartForm ? (
        <ChartForm
          chart={chartForm.chart}
          mode={chartForm.mode}
          onClose={() => setChartForm(undefined)}
          onSubmit={(chart) => {
            update((document) => (chartForm.mode === 'add' ? withChart(document, chart) : withChartReplaced(document, chart)));
            setChartForm(undefined);
          }}
        />
      ) : null}
      {jsonOpen ? (
        <JsonDocumentEditor
          document={draft}
          onClose={() => setJsonOpen(false)}
          onApply={(document) => {
            setDraft(document);
            setJsonOpen(false);
          }}
        />
      ) : null}
      {conflict ? (
        <ConflictDialog
          loadedVersion={loaded.version}
          currentVersion={conflict.currentVersion}
          message={conflict.message}
          onCancel={() => setConflict(undefined)}
          onReload={() => {
            setConflict(undefined);
            void load();
          }}
          onOverwrite={() => void save(true)}
        />
      ) : null}
    </section>
  );
}
