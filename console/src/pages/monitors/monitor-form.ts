// The editor's form state (text as typed, so a half-typed number is not lost) and its mapping to
// and from the API's monitor fields. Numbers are sent as typed: the server's checks and messages
// decide what is valid, the same for the console as for any client.
import type { Monitor, MonitorInput, MonitorType, Operator } from '../../api/monitors';
import type { HandedQuery } from '../query/hand-off';

export interface MonitorForm {
  name: string;
  description: string;
  type: MonitorType;
  aplQuery: string;
  operator: Operator;
  threshold: string;
  columnName: string;
  intervalMinutes: string;
  rangeMinutes: string;
  secondDelay: string;
  triggerFromNRuns: string;
  triggerAfterNPositiveResults: string;
  tolerance: string;
  compareDays: string;
  alertOnNoData: boolean;
  notifyByGroup: boolean;
  notifyEveryRun: boolean;
  resolvable: boolean;
  skipResolved: boolean;
  disabled: boolean;
  /** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input holds it; empty for none. */
  disabledUntil: string;
  notifierIds: string[];
}

export const THRESHOLD_OPERATORS: Operator[] = ['Above', 'AboveOrEqual', 'Below', 'BelowOrEqual'];
export const ANOMALY_OPERATORS: Operator[] = ['Above', 'Below', 'AboveOrBelow'];

export const OPERATOR_WORDS: Record<Operator, string> = {
  Above: 'above',
  AboveOrEqual: 'above or equal to',
  Below: 'below',
  BelowOrEqual: 'below or equal to',
  AboveOrBelow: 'above or below',
};

export function emptyForm(handed?: HandedQuery): MonitorForm {
  return {
    name: '',
    description: '',
    type: 'Threshold',
    aplQuery: handed?.apl ?? '',
    operator: 'Above',
    threshold: '',
    columnName: '',
    intervalMinutes: '5',
    rangeMinutes: '5',
    secondDelay: '0',
    triggerFromNRuns: '1',
    triggerAfterNPositiveResults: '1',
    tolerance: '10',
    compareDays: '',
    alertOnNoData: false,
    notifyByGroup: false,
    notifyEveryRun: false,
    resolvable: false,
    skipResolved: false,
    disabled: false,
    disabledUntil: '',
    notifierIds: [],
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

function localInputValue(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formOf(monitor: Monitor): MonitorForm {
  return {
    name: monitor.name,
    description: monitor.description,
    type: monitor.type,
    aplQuery: monitor.aplQuery,
    operator: monitor.operator ?? (monitor.type === 'AnomalyDetection' ? 'AboveOrBelow' : 'Above'),
    threshold: monitor.type === 'Threshold' ? String(monitor.threshold ?? '') : '',
    columnName: monitor.columnName ?? '',
    intervalMinutes: String(monitor.intervalMinutes),
    rangeMinutes: String(monitor.rangeMinutes),
    secondDelay: String(monitor.secondDelay),
    triggerFromNRuns: String(monitor.triggerFromNRuns),
    triggerAfterNPositiveResults: String(monitor.triggerAfterNPositiveResults),
    tolerance: monitor.tolerance !== undefined ? String(monitor.tolerance) : '10',
    compareDays: monitor.compareDays !== undefined ? String(monitor.compareDays) : '',
    alertOnNoData: monitor.alertOnNoData,
    notifyByGroup: monitor.notifyByGroup,
    notifyEveryRun: monitor.notifyEveryRun,
    resolvable: monitor.resolvable,
    skipResolved: monitor.skipResolved,
    disabled: monitor.disabled,
    disabledUntil: localInputValue(monitor.disabledUntil),
    notifierIds: monitor.notifierIds,
  };
}

/** A typed number, or the text itself when it is not one (the server names the field). */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** The body for POST/PUT /v2/monitors: the fields of the chosen type, numbers as typed. */
export function inputOfForm(form: MonitorForm): MonitorInput {
  const optionalNumber = (text: string) => (text.trim() === '' ? undefined : numberOf(text));
  const input: MonitorInput = {
    name: form.name,
    description: form.description,
    type: form.type,
    aplQuery: form.aplQuery,
    intervalMinutes: numberOf(form.intervalMinutes),
    rangeMinutes: numberOf(form.rangeMinutes),
    secondDelay: optionalNumber(form.secondDelay) ?? 0,
    alertOnNoData: form.type !== 'MatchEvent' && form.alertOnNoData,
    notifyByGroup: form.type !== 'MatchEvent' && form.notifyByGroup,
    notifyEveryRun: form.type !== 'MatchEvent' && form.notifyEveryRun,
    resolvable: form.type === 'MatchEvent' && form.resolvable,
    skipResolved: form.type !== 'MatchEvent' && form.skipResolved,
    disabled: form.disabled,
    disabledUntil: form.disabledUntil ? new Date(form.disabledUntil).toISOString() : null,
    notifierIds: form.notifierIds,
    triggerFromNRuns: form.type === 'MatchEvent' ? 1 : numberOf(form.triggerFromNRuns),
    triggerAfterNPositiveResults: form.type === 'MatchEvent' ? 1 : numberOf(form.triggerAfterNPositiveResults),
  };
  if (form.type !== 'MatchEvent') {
    input.operator = form.operator;
    const column = form.columnName.trim();
    if (column) input.columnName = column;
  }
  if (form.type === 'Threshold') {
    const threshold = optionalNumber(form.threshold);
    if (threshold !== undefined) input.threshold = threshold;
  }
  if (form.type === 'AnomalyDetection') {
    const tolerance = optionalNumber(form.tolerance);
    if (tolerance !== undefined) input.tolerance = tolerance;
    const compareDays = optionalNumber(form.compareDays);
    if (compareDays !== undefined) input.compareDays = compareDays;
  }
  return input;
}

/** The form after switching type: an operator that suits the new type. */
export function withType(form: MonitorForm, type: MonitorType): MonitorForm {
  const allowed = type === 'AnomalyDetection' ? ANOMALY_OPERATORS : THRESHOLD_OPERATORS;
  return { ...form, type, operator: allowed.includes(form.operator) ? form.operator : allowed[0]! };
}
