// Heroku log drains: `application/logplex-1` bodies are syslog messages framed by octet counting
// (RFC 6587: "<length> <message>"), each an RFC 5424 message. One frame is one event with the
// message's header fields, its structured data and its text; its timestamp is `_time`.
// Heroku leaves out the STRUCTURED-DATA part ("... web.1 - State changed"), so a message whose
// next part does not open an SD element is read as text.
import { invalidInput } from '../errors';
import type { EventVisitor, RawEvent } from '../ingest/parse-body';
import { countingVisitor } from './event-count';

export const LOGPLEX_MEDIA_TYPE = 'application/logplex-1';

const FACILITIES = [
  'kern', 'user', 'mail', 'daemon', 'auth', 'syslog', 'lpr', 'news', 'uucp', 'cron', 'authpriv', 'ftp', 'ntp', 'security',
  'console', 'solaris-cron', 'local0', 'local1', 'local2', 'local3', 'local4', 'local5', 'local6', 'local7',
];
const SEVERITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

const SPACE = 0x20;

/** Reads the frames of a logplex body; a body whose framing is broken is refused whole (400). */
export function readLogplexBody(body: Buffer, visit: EventVisitor): number {
  const counter = countingVisitor(visit);
  let at = 0;
  let frame = 0;
  while (at < body.length) {
    // Frames may be separated by line breaks (Heroku ends each message with one).
    const byte = body[at]!;
    if (byte === 0x0a || byte === 0x0d || byte === SPACE) {
      at++;
      continue;
    }
    frame++;
    const space = body.indexOf(SPACE, at);
    const digits = space === -1 ? '' : body.toString('latin1', at, space);
    if (!/^[1-9]\d{0,8}$/.test(digits)) throw invalidInput(`logplex frame ${frame} does not start with an octet count and a space`);
    const length = Number(digits);
    const start = space + 1;
    if (start + length > body.length) throw invalidInput(`logplex frame ${frame} announces ${length} bytes but the body ends first`);
    const text = body.toString('utf8', start, start + length).replace(/\r?\n$/, '');
    counter.visit(parseSyslogMessage(text));
    at = start + length;
  }
  return counter.count();
}

/** Splits off the next space-separated header field; `-` is the nil value. */
class Cursor {
  at = 0;
  constructor(readonly text: string) {}

  field(): string | undefined {
    if (this.at > this.text.length) return undefined;
    let end = this.text.indexOf(' ', this.at);
    if (end === -1) end = this.text.length;
    const value = this.text.slice(this.at, end);
    this.at = end + 1;
    return value;
  }

  rest(): string {
    return this.at >= this.text.length ? '' : this.text.slice(this.at);
  }
}

const HEADER = /^<(\d{1,3})>(\d{1,2})$/;

/** An RFC 5424 message as event fields; text that is not one becomes `message` alone. */
export function parseSyslogMessage(text: string): RawEvent {
  const cursor = new Cursor(text);
  const head = HEADER.exec(cursor.field() ?? '');
  const priority = head ? Number(head[1]) : Number.NaN;
  if (!head || priority > 191) return { message: text };
  const event: RawEvent = {
    facility: FACILITIES[priority >> 3],
    severity: SEVERITIES[priority & 7],
  };
  const timestamp = cursor.field();
  if (timestamp && timestamp !== '-') event._time = timestamp;
  for (const name of ['hostname', 'appname', 'procid', 'msgid']) {
    const value = cursor.field();
    if (value !== undefined && value !== '-' && value !== '') event[name] = value;
  }
  let rest = cursor.rest();
  if (rest.startsWith('[')) {
    const parsed = readStructuredData(rest);
    if (parsed) {
      event.structured_data = parsed.data;
      rest = parsed.rest;
    }
  } else if (rest === '-' || rest.startsWith('- ')) {
    rest = rest.slice(2);
  }
  // A UTF-8 byte order mark may open the text (RFC 5424 section 6.4).
  if (rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
  if (rest !== '') event.message = rest;
  return event;
}

/** `[id name="value" ...][id2 ...]` into `{id: {name: value}}`; undefined when it is not well formed. */
function readStructuredData(text: string): { data: Record<string, Record<string, string>>; rest: string } | undefined {
  const data: Record<string, Record<string, string>> = {};
  let at = 0;
  while (text[at] === '[') {
    const idEnd = text.slice(at + 1).search(/[ \]]/);
    if (idEnd <= 0) return undefined;
    const id = text.slice(at + 1, at + 1 + idEnd);
    const params: Record<string, string> = {};
    at = at + 1 + idEnd;
    while (text[at] === ' ') {
      const eq = text.indexOf('="', at);
      if (eq === -1) return undefined;
      const name = text.slice(at + 1, eq);
      let value = '';
      let i = eq + 2;
      for (; i < text.length && text[i] !== '"'; i++) {
        // Inside a value, `\"`, `\\` and `\]` stand for the character itself.
        if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\' || text[i + 1] === ']')) i++;
        value += text[i];
      }
      if (i >= text.length) return undefined;
      params[name] = value;
      at = i + 1;
    }
    if (text[at] !== ']') return undefined;
    data[id] = params;
    at++;
  }
  return { data, rest: text[at] === ' ' ? text.slice(at + 1) : text.slice(at) };
}
