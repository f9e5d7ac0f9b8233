// Adding a chart and changing one: its title, type, query (APL) or Markdown text, and display
// options (series style, y scale, unit, decimals, axis bounds, thresholds; for a gauge its range,
// threshold bands and colour scale). It edits a copy of the chart, so properties this form does
// not know are kept.
import { useState } from 'react';
import type { DashboardChart } from '../../api/dashboards';
import { AplEditor } from '../../editor/AplEditor';
import { displayOptionsOf } from './chart-options';
import { type ColorScale, gaugeOptionsOf } from './gauge';
import { CHART_KINDS } from './document';
import { Modal } from './Modal';

export interface ChartFormProps {
  /** The chart to change, or a new one's starting point. */
  chart: DashboardChart;
  mode: 'add' | 'change';
  onSubmit(chart: DashboardChart): void;
  onClose(): void;
}

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));

export function ChartForm({ chart, mode, onSubmit, onClose }: ChartFormProps) {
  const display = displayOptionsOf(chart);
  const [name, setName] = useState(chart.name ?? '');
  const [type, setType] = useState(chart.type);
  const [apl, setApl] = useState(chart.query?.apl ?? '');
  const [text, setText] = useState(typeof chart.text === 'string' ? chart.text : '');
  const [seriesStyle, setSeriesStyle] = useState(display.seriesStyle);
  const [yScale, setYScale] = useState(display.yScale);
  const [unit, setUnit] = useState(display.unit);
  const [decimals, setDecimals] = useState(display.decimals?.toString() ?? '');
  const [yMin, setYMin] = useState(display.yMin?.toString() ?? '');
  const [yMax, setYMax] = useState(display.yMax?.toString() ?? '');
  const [thresholds, setThresholds] = useState(display.thresholds.map((threshold) => threshold.value).join(', '));
  const gauge = gaugeOptionsOf(chart);
  const [gaugeMin, setGaugeMin] = useState(gauge.min?.toString() ?? '');
  const [gaugeMax, setGaugeMax] = useState(gauge.max?.toString() ?? '');
  const [colorScale, setColorScale] = useState<ColorScale>(gauge.colorScale);
  const [problem, setProblem] = useState<string | undefined>();
  const kind = CHART_KINDS.find((candidate) => candidate.type === type);
  const takesQuery = kind ? kind.query : chart.query !== undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (takesQuery && !apl.trim()) return setProblem('A query is required for this chart type');
    if (type === 'Note' && !text.trim()) return setProblem('A note needs some text');
    const thresholdValues = thresholds
      .split(/[,\s]+/)
      .filter(Boolean)
      .map(Number);
    if (thresholdValues.some((value) => !Number.isFinite(value))) return setProblem('Thresholds are numbers separated by commas');
    const next: DashboardChart = { ...chart, type };
    if (name.trim()) next.name = name.trim();
    else delete next.name;
    if (takesQuery) next.query = { ...(chart.query ?? {}), apl };
    else delete next.query;
    if (type === 'Note') next.text = text;
    if (type === 'MonitorList' && !Array.isArray(next.selectedMonitors)) return setProblem('Monitor lists are set up in the JSON editor (selectedMonitors, columns)');
    if (type === 'SmartFilter' && !Array.isArray(next.filters)) next.filters = [{ id: 'filter', name: 'Filter', options: [] }];
    const previousOptions = typeof chart.options === 'object' && chart.options !== null ? (chart.options as Record<string, unknown>) : {};
    const isGauge = type === 'Gauge';
    const options: Record<string, unknown> = { ...previousOptions, unit, ...(isGauge ? { colorScale } : { seriesStyle, yScale }) };
    const assign = (key: string, value: number | undefined) => {
      if (value === undefined) delete options[key];
      else options[key] = value;
    };
    assign('decimals', numberOrUndefined(decimals));
    if (isGauge) {
      const min = numberOrUndefined(gaugeMin);
      const max = numberOrUndefined(gaugeMax);
      if (min !== undefined && max !== undefined && max <= min) return setProblem('The gauge maximum must be above its minimum');
      assign('min', min);
      assign('max', max);
    } else {
      assign('yMin', numberOrUndefined(yMin));
      assign('yMax', numberOrUndefined(yMax));
    }
    options.thresholds = thresholdValues.map((value) => ({ value }));
    if (takesQuery) next.options = options;
    onSubmit(next);
  };

  return (
    <Modal title={mode === 'add' ? 'Add chart' : `Options of ${chart.name || chart.type}`} onClose={onClose} wide>
      <form className="form-stack dashboard-chart-form" onSubmit={submit}>
        <div className="dashboard-form-row">
          <label>
            Title
            <input value={name} onChange={(event) => setName(event.target.value)} maxLength={500} />
          </label>
          <label>
            Type
            <select value={type} onChange={(event) => setType(event.target.value)}>
              {CHART_KINDS.map((option) => (
                <option key={option.type} value={option.type}>
                  {option.label}
                </option>
              ))}
              {!kind ? <option value={type}>{type}</option> : null}
            </select>
          </label>
        </div>
        {takesQuery ? (
          <div className="dashboard-apl">
            <span className="dashboard-field-label">APL query</span>
            <AplEditor value={apl} onChange={setApl} onRun={() => undefined} label="Chart query" />
          </div>
        ) : null}
        {type === 'Note' ? (
          <label>
            Markdown
            <textarea value={text} onChange={(event) => setText(event.target.value)} rows={8} />
          </label>
        ) : null}
        {takesQuery ? (
          <fieldset className="dashboard-form-row">
            <legend>Display</legend>
            {type === 'Gauge' ? null : (
              <>
                <label>
                  Series style
                  <select value={seriesStyle} onChange={(event) => setSeriesStyle(event.target.value as typeof seriesStyle)}>
                    <option value="line">Line</option>
                    <option value="area">Area</option>
                    <option value="bars">Bars</option>
                  </select>
                </label>
                <label>
                  Y axis scale
                  <select value={yScale} onChange={(event) => setYScale(event.target.value as typeof yScale)}>
                    <option value="linear">Linear</option>
                    <option value="log">Logarithmic</option>
                  </select>
                </label>
              </>
            )}
            <label>
              Unit
              <input value={unit} onChange={(event) => setUnit(event.target.value)} placeholder="ms, req/s, %" />
            </label>
            <label>
              Decimals
              <input value={decimals} onChange={(event) => setDecimals(event.target.value)} inputMode="numeric" />
            </label>
            {type === 'Gauge' ? (
              <>
                <label>
                  Gauge minimum
                  <input value={gaugeMin} onChange={(event) => setGaugeMin(event.target.value)} inputMode="decimal" placeholder="0" />
                </label>
                <label>
                  Gauge maximum
                  <input value={gaugeMax} onChange={(event) => setGaugeMax(event.target.value)} inputMode="decimal" placeholder="automatic" />
                </label>
                <label>
                  Colour scale
                  <select value={colorScale} onChange={(event) => setColorScale(event.target.value as ColorScale)}>
                    <option value="greenToRed">Green to red (low is good)</option>
                    <option value="redToGreen">Red to green (high is good)</option>
                  </select>
                </label>
              </>
            ) : (
              <>
                <label>
                  Y axis minimum
                  <input value={yMin} onChange={(event) => setYMin(event.target.value)} inputMode="decimal" />
                </label>
                <label>
                  Y axis maximum
                  <input value={yMax} onChange={(event) => setYMax(event.target.value)} inputMode="decimal" />
                </label>
              </>
            )}
            <label>
              Thresholds
              <input value={thresholds} onChange={(event) => setThresholds(event.target.value)} placeholder="500, 1000" />
            </label>
          </fieldset>
        ) : null}
        {problem ? (
          <p className="error-box" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="toolbar">
          <button type="submit" className="button primary">
            {mode === 'add' ? 'Add chart' : 'Apply options'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
