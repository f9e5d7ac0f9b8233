// The monitor editor's fields, grouped as a user thinks of them: what it is, the query, when it
// fires (per kind), when it runs, and whom it tells. Fields that do not apply to the chosen kind
// are not shown (and not sent).
import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { type MonitorType, type Notifier, channelOf } from '../../api/monitors';
import { AplEditor } from '../../editor/AplEditor';
import { ANOMALY_OPERATORS, type MonitorForm, OPERATOR_WORDS, THRESHOLD_OPERATORS, withType } from './monitor-form';
import { CHANNEL_LABELS } from './channel-fields';

interface FieldsProps {
  form: MonitorForm;
  onChange(form: MonitorForm): void;
  /** Undefined while they load. */
  notifiers: Notifier[] | undefined;
  notifiersError: string | undefined;
}

const KINDS: { type: MonitorType; label: string; hint: string }[] = [
  { type: 'Threshold', label: 'Threshold', hint: 'Alert when a value of the aggregated query crosses a threshold' },
  { type: 'MatchEvent', label: 'Match', hint: 'Notify every event the query returns' },
  { type: 'AnomalyDetection', label: 'Anomaly', hint: 'Alert when the value leaves its usual range' },
];

export function MonitorFields({ form, onChange, notifiers: loaded, notifiersError }: FieldsProps) {
  const notifiers = loaded ?? [];
  const id = useId();
  const { org = '' } = useParams();
  const set = <K extends keyof MonitorForm>(key: K, value: MonitorForm[K]) => onChange({ ...form, [key]: value });
  const text = (key: keyof MonitorForm, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}, hint?: string) => (
    <label>
      {label}
      <input {...props} value={form[key] as string} onChange={(event) => set(key, event.target.value as never)} />
      {hint ? <span className="muted field-hint">{hint}</span> : null}
    </label>
  );
  const check = (key: keyof MonitorForm, label: string, hint: string) => (
    <label className="check">
      <input type="checkbox" checked={form[key] as boolean} onChange={(event) => set(key, event.target.checked as never)} />
      <span>
        {label} <span className="muted">{hint}</span>
      </span>
    </label>
  );
  const operators = form.type === 'AnomalyDetection' ? ANOMALY_OPERATORS : THRESHOLD_OPERATORS;

  return (
    <div className="monitor-fields">
      <fieldset className="form-stack">
        <legend>Monitor</legend>
        {text('name', 'Name', { required: true, maxLength: 255 })}
        <label>
          Description
          <textarea rows={2} value={form.description} onChange={(event) => set('description', event.target.value)} />
        </label>
        <div role="radiogroup" aria-labelledby={`${id}-kind`} className="kind-choice">
          <span id={`${id}-kind`} className="field-title">
            Kind
          </span>
          {KINDS.map((kind) => (
            <label key={kind.type} className="check">
              <input type="radio" name={`${id}-type`} value={kind.type} checked={form.type === kind.type} onChange={() => onChange(withType(form, kind.type))} />
              <span>
                {kind.label} <span className="muted">{kind.hint}</span>
              </span>
            </label>
          ))}
        </div>
        <div className="field">
          <span className="field-title" id={`${id}-apl`}>
            APL query
          </span>
          <div className="monitor-query">
            <AplEditor value={form.aplQuery} onChange={(value) => set('aplQuery', value)} onRun={() => undefined} label="APL query" placeholder="['dataset'] | summarize count() by bin(_time, 1m)" />
          </div>
          <span className="muted field-hint">
            {form.type === 'MatchEvent'
              ? 'Filter and shape events with where, extend, project…; no summarize.'
              : 'End with summarize; the numeric columns (or the column named below) are compared.'}
          </span>
        </div>
      </fieldset>

      <fieldset className="form-stack">
        <legend>When it fires</legend>
        {form.type === 'MatchEvent' ? (
          check('resolvable', 'Resolvable', 'each matched event is its own incident in PagerDuty and Opsgenie')
        ) : (
          <>
            <label>
              Operator
              <select value={form.operator} onChange={(event) => set('operator', event.target.value as MonitorForm['operator'])}>
                {operators.map((operator) => (
                  <option key={operator} value={operator}>
                    {operator} ({OPERATOR_WORDS[operator]})
                  </option>
                ))}
              </select>
            </label>
            {form.type === 'Threshold' ? text('threshold', 'Threshold', { inputMode: 'decimal' }) : null}
            {form.type === 'AnomalyDetection'
              ? text('tolerance', 'Tolerance (%)', { inputMode: 'decimal' }, 'How far from the expected value, in percent of it, is normal (default 10)')
              : null}
            {form.type === 'AnomalyDetection'
              ? text('compareDays', 'Compare with days earlier', { inputMode: 'numeric' }, 'The same window that many days before (1 to 7); empty: the window just before')
              : null}
            {text('columnName', 'Column', {}, 'The result column to compare; empty: every numeric column that is not a group')}
            <div className="field-row">
              {text('triggerAfterNPositiveResults', 'Positive runs needed', { inputMode: 'numeric' })}
              {text('triggerFromNRuns', 'Out of the last runs', { inputMode: 'numeric' })}
            </div>
            {check('notifyByGroup', 'Alert per group', "each group of the query's by fields is its own alert")}
            {check('alertOnNoData', 'Alert on no data', 'open an alert when the query returns no rows')}
            {check('notifyEveryRun', 'Notify every run', 'notify again on every positive run while open')}
            {check('skipResolved', 'Skip resolved', 'record closes without notifying them')}
          </>
        )}
      </fieldset>

      <fieldset className="form-stack">
        <legend>When it runs</legend>
        <div className="field-row">
          {text('intervalMinutes', 'Every (minutes)', { inputMode: 'numeric' })}
          {text('rangeMinutes', 'Over the last (minutes)', { inputMode: 'numeric' })}
          {text('secondDelay', 'Delay (seconds)', { inputMode: 'numeric' }, 'Run this long after the window ends, for late data')}
        </div>
        {check('disabled', 'Disabled', 'never runs until enabled')}
        <label>
          Paused until
          <input type="datetime-local" value={form.disabledUntil} onChange={(event) => set('disabledUntil', event.target.value)} />
          <span className="muted field-hint">Empty: not paused. It resumes by itself after that time.</span>
        </label>
      </fieldset>

      <fieldset className="form-stack">
        <legend>Notifiers</legend>
        {notifiersError ? <p className="error-box">{notifiersError}</p> : null}
        {loaded && notifiers.length === 0 && !notifiersError ? (
          <p className="muted">
            No notifiers yet: <Link to={`/${encodeURIComponent(org)}/monitors/notifiers`}>create one</Link> to be told when this monitor fires.
          </p>
        ) : null}
        {notifiers.map((notifier) => {
          const channel = channelOf(notifier);
          return (
            <label key={notifier.id} className="check">
              <input
                type="checkbox"
                checked={form.notifierIds.includes(notifier.id)}
                onChange={(event) =>
                  set('notifierIds', event.target.checked ? [...form.notifierIds, notifier.id] : form.notifierIds.filter((other) => other !== notifier.id))
                }
              />
              <span>
                {notifier.name} <span className="muted">{channel ? CHANNEL_LABELS[channel] : ''}</span>
              </span>
            </label>
          );
        })}
        {(loaded ? form.notifierIds : [])
          .filter((notifierId) => !notifiers.some((notifier) => notifier.id === notifierId))
          .map((notifierId) => (
            <p key={notifierId} className="muted">
              {notifierId} (no longer exists)
            </p>
          ))}
      </fieldset>
    </div>
  );
}
