// The log events of a trace as the list beside the waterfall reads them: time, severity, service,
// a message (the `body`, or its `body.*` fields, or the event's other fields), the span it was
// written in, and the whole event for its JSON.
import { rowAt, rowCount } from '../../api/query';
import type { DatasetRows } from '../../api/traces';
import { compactText } from '../query/cells';
import { type Instant, parseInstant } from './time-ns';

export interface TraceLog {
  dataset: string;
  time: string;
  at: Instant | undefined;
  severity: string;
  service: string;
  message: string;
  spanId: string | undefined;
  event: Record<string, unknown>;
}

const SEVERITY_FIELDS = ['severity_text', 'level', 'severity', 'log.level'];
const MESSAGE_FIELDS = ['body', 'message', 'msg', 'log'];
const QUIET_FIELDS = new Set(['_time', '_sysTime', '_rowId', 'trace_id', 'span_id', 'severity_text', 'severity_number', 'service.name']);

function message(event: Record<string, unknown>): string {
  for (const name of MESSAGE_FIELDS) if (typeof event[name] === 'string' && event[name] !== '') return event[name] as string;
  const bodyFields = Object.entries(event).filter(([name]) => name.startsWith('body.'));
  if (bodyFields.length > 0) return compactText(bodyFields.map(([name, value]) => [name.slice('body.'.length), value]), 300);
  return compactText(Object.entries(event).filter(([name]) => !QUIET_FIELDS.has(name)), 300);
}

export function readLogs(answers: DatasetRows[]): TraceLog[] {
  const logs: TraceLog[] = [];
  for (const { dataset, table } of answers) {
    for (let row = 0; row < rowCount(table); row++) {
      // A table's columns are the dataset's fields: each event keeps only those it has.
      const event = Object.fromEntries(Object.entries(rowAt(table, row)).filter(([, value]) => value !== null && value !== undefined));
      const severityField = SEVERITY_FIELDS.find((name) => typeof event[name] === 'string');
      logs.push({
        dataset,
        time: typeof event._time === 'string' ? event._time : '',
        at: parseInstant(event._time),
        severity: severityField ? String(event[severityField]) : typeof event.severity_number === 'number' ? `severity ${event.severity_number}` : '',
        service: typeof event['service.name'] === 'string' ? (event['service.name'] as string) : '',
        message: message(event),
        spanId: typeof event.span_id === 'string' && event.span_id !== '' ? event.span_id : undefined,
        event,
      });
    }
  }
  return logs.sort((a, b) => (a.at && b.at ? a.at.ms - b.at.ms || a.at.nanosInMs - b.at.nanosInMs : 0));
}
