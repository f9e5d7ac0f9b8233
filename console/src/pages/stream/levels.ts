// Reads how serious an event is from the fields loggers and shippers commonly use, so the tail can
// colour errors and warnings whatever produced them.
export type Level = 'error' | 'warn' | 'info' | 'debug' | 'none';

const LEVEL_FIELDS = ['level', 'severity', 'severityText', 'severity_text', 'log.level', 'loglevel', 'log_level'];
const NUMBER_FIELDS = ['severity_number', 'severityNumber'];
const STATUS_FIELDS = ['status', 'status_code', 'statusCode', 'http.status_code', 'attributes.http.response.status_code'];

/** The value at a dotted path, read either as one flattened key or through nested objects. */
function valueAt(data: Record<string, unknown>, path: string): unknown {
  if (path in data) return data[path];
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function levelOfWord(word: string): Level | undefined {
  const text = word.trim().toLowerCase();
  if (!text) return undefined;
  if (/^(fatal|crit|critical|emerg|emergency|alert|panic|err|error|severe)/.test(text)) return 'error';
  if (/^(warn|warning)/.test(text)) return 'warn';
  if (/^(info|information|informational|notice)/.test(text)) return 'info';
  if (/^(debug|trace|verbose|fine)/.test(text)) return 'debug';
  return undefined;
}

/** OpenTelemetry severity numbers: 1–4 trace, 5–8 debug, 9–12 info, 13–16 warn, 17–24 error and fatal. */
function levelOfSeverityNumber(value: number): Level | undefined {
  if (value >= 17) return 'error';
  if (value >= 13) return 'warn';
  if (value >= 9) return 'info';
  if (value >= 1) return 'debug';
  return undefined;
}

function levelOfStatus(value: number): Level | undefined {
  if (value >= 500 && value < 600) return 'error';
  if (value >= 400 && value < 500) return 'warn';
  return undefined;
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

export function levelOf(data: Record<string, unknown>): Level {
  for (const field of LEVEL_FIELDS) {
    const value = valueAt(data, field);
    if (typeof value === 'string') {
      const level = levelOfWord(value);
      if (level) return level;
    }
  }
  for (const field of NUMBER_FIELDS) {
    const number = numberOf(valueAt(data, field));
    const level = number === undefined ? undefined : levelOfSeverityNumber(number);
    if (level) return level;
  }
  for (const field of STATUS_FIELDS) {
    const number = numberOf(valueAt(data, field));
    const level = number === undefined ? undefined : levelOfStatus(number);
    if (level) return level;
  }
  return 'none';
}
