// A section's heading across the grid: in view mode a button that folds and unfolds the charts
// below it; in edit mode its name, whether it starts folded, and buttons to move or delete it.
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { DashboardChart } from '../../api/dashboards';
import { sectionName } from './sections';

export interface SectionHeaderProps {
  section: DashboardChart;
  chartCount: number;
  folded: boolean;
  editing: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onToggle(): void;
  onChange(change: { name?: string; collapsedByDefault?: boolean }): void;
  onMove(direction: -1 | 1): void;
  onDelete(withCharts: boolean): void;
}

export function SectionHeader({ section, chartCount, folded, editing, canMoveUp, canMoveDown, onToggle, onChange, onMove, onDelete }: SectionHeaderProps) {
  const name = sectionName(section);
  const charts = `${chartCount} ${chartCount === 1 ? 'chart' : 'charts'}`;
  if (!editing) {
    return (
      <div className="dashboard-section" role="group" aria-label={`Section ${name}`} data-section-id={section.id}>
        <h2 className="dashboard-section-title">
          <button type="button" className="dashboard-section-toggle" aria-expanded={!folded} onClick={onToggle}>
            {folded ? <ChevronRight size={18} aria-hidden="true" /> : <ChevronDown size={18} aria-hidden="true" />}
            {name}
          </button>
        </h2>
        <span className="muted dashboard-section-count">{folded ? `${charts} folded` : charts}</span>
      </div>
    );
  }
  return (
    <div className="dashboard-section editing" role="group" aria-label={`Section ${name}`} data-section-id={section.id}>
      <span className="dashboard-drag-handle button small ghost" title="Drag to move" aria-hidden="true">
        ⠿
      </span>
      <input className="dashboard-section-name" aria-label={`Name of section ${name}`} value={section.name ?? ''} maxLength={500} onChange={(event) => onChange({ name: event.target.value })} />
      <span className="muted dashboard-section-count">{charts}</span>
      <div className="toolbar dashboard-section-edit">
        <label className="dashboard-inline-label">
          <input type="checkbox" checked={section.collapsedByDefault === true} onChange={(event) => onChange({ collapsedByDefault: event.target.checked })} /> Folded by default
        </label>
        <button type="button" className="button small" disabled={!canMoveUp} onClick={() => onMove(-1)} aria-label={`Move up, section ${name}`}>
          Move up
        </button>
        <button type="button" className="button small" disabled={!canMoveDown} onClick={() => onMove(1)} aria-label={`Move down, section ${name}`}>
          Move down
        </button>
        <button type="button" className="button small" onClick={() => onDelete(false)} aria-label={`Delete section ${name}, keep its charts`}>
          Delete section
        </button>
        <button type="button" className="button small" onClick={() => onDelete(true)} aria-label={`Delete with charts, section ${name}`}>
          Delete with charts
        </button>
      </div>
    </div>
  );
}
