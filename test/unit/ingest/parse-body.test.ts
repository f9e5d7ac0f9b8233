import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { MAX_EVENTS_PER_REQUEST } from '../../../src/ingest/limits';
import { csvCellValue, parseBody, parseCsvBody, parseJsonBody, parseNdjsonBody } from '../../../src/ingest/parse-body';

const buffer = (text: string) => Buffer.from(text, 'utf8');

function kindOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}: ${error.message}` : `other: ${String(error)}`;
  }
  return undefined;
}

describe('application/json bodies', () => {
  it('reads one object as one event', () => {
    expect(parseJsonBody(buffer('{"a":1}')).events).toEqual([{ a: 1 }]);
  });

  it('reads an array of objects', () => {
    expect(parseJsonBody(buffer('[{"a":1},{"b":"x"}]')).events).toEqual([{ a: 1 }, { b: 'x' }]);
  });

  it('merges each group\'s labels into its events, the event winning on a shared name', () => {
    const body = JSON.stringify([
      { labels: { host: 'a', env: 'prod' }, events: [{ msg: 'one' }, { msg: 'two', env: 'dev' }] },
      { labels: { host: 'b' }, events: [{ msg: 'three' }] },
      { msg: 'plain' },
    ]);
    expect(parseJsonBody(buffer(body)).events).toEqual([
      { host: 'a', env: 'prod', msg: 'one' },
      { host: 'a', env: 'dev', msg: 'two' },
      { host: 'b', msg: 'three' },
      { msg: 'plain' },
    ]);
  });

  it('treats an object with labels and events plus other fields as an ordinary event', () => {
    const event = { labels: { a: 1 }, events: [], other: true };
    expect(parseJsonBody(buffer(JSON.stringify([event]))).events).toEqual([event]);
  });

  it('reads NDJSON sent as application/json, as Axiom does', () => {
    expect(parseJsonBody(buffer('{"a":1}\n{"a":2}\n')).events).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('refuses bodies that are not JSON, and JSON that is not events', () => {
    expect(kindOf(() => parseJsonBody(buffer('{"a":')))).toMatch(/^invalid_input: request body is not valid JSON/);
    expect(kindOf(() => parseJsonBody(buffer('42')))).toMatch(/^invalid_input: request body must be a JSON object/);
    expect(kindOf(() => parseJsonBody(buffer('[{"a":1}, 3]')))).toBe('invalid_input: element 1 of the body is a number, not an event object');
    expect(kindOf(() => parseJsonBody(buffer('[{"labels":{},"events":[1]}]')))).toBe('invalid_input: event 0 of group 0 is a number, not an object');
  });

  it(`refuses more than ${MAX_EVENTS_PER_REQUEST} events, counting grouped ones`, () => {
    const many = JSON.stringify(Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, (_, i) => ({ i })));
    expect(kindOf(() => parseJsonBody(buffer(many)))).toMatch(/^payload_too_large: a request may carry at most 10000 events \(got 10001\)/);
    const groups = JSON.stringify([{ labels: {}, events: Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, () => ({})) }]);
    expect(kindOf(() => parseJsonBody(buffer(groups)))).toMatch(/^payload_too_large/);
    const exactly = JSON.stringify(Array.from({ length: MAX_EVENTS_PER_REQUEST }, (_, i) => ({ i })));
    expect(parseJsonBody(buffer(exactly)).events).toHaveLength(MAX_EVENTS_PER_REQUEST);
  });
});

describe('NDJSON bodies', () => {
  it('reads one object per line, skipping blank lines and CRLF endings, and measures each line', () => {
    const parsed = parseNdjsonBody(buffer('{"a":1}\r\n\n  \n{"b":"é"}\n'));
    expect(parsed.events).toEqual([{ a: 1 }, { b: 'é' }]);
    expect(parsed.sizes).toEqual([7, 10]);
  });

  it('names the line that is not JSON or not an object', () => {
    expect(kindOf(() => parseNdjsonBody(buffer('{"a":1}\n{oops}\n')))).toMatch(/^invalid_input: line 2 is not valid JSON/);
    expect(kindOf(() => parseNdjsonBody(buffer('{"a":1}\n\n[1,2]')))).toBe('invalid_input: line 3 is an array, not an event object');
    expect(kindOf(() => parseNdjsonBody(buffer('"text"')))).toBe('invalid_input: line 1 is a string, not an event object');
  });

  it('refuses more lines than the event limit before parsing them all', () => {
    const lines = Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, () => '{}').join('\n');
    expect(kindOf(() => parseNdjsonBody(buffer(lines)))).toMatch(/^payload_too_large/);
  });

  it('reads an empty body as no events', () => {
    expect(parseNdjsonBody(buffer('')).events).toEqual([]);
  });
});

describe('CSV bodies', () => {
  it('reads the header line as field names and infers numbers and booleans', () => {
    const parsed = parseCsvBody(buffer('user,status,latency,ok,zip\nalice,200,1.5,true,01234\nbob,500,-2e3,false,\n'));
    expect(parsed.events).toEqual([
      { user: 'alice', status: 200, latency: 1.5, ok: true, zip: '01234' },
      { user: 'bob', status: 500, latency: -2000, ok: false },
    ]);
  });

  it('honours quoting: delimiters, quotes and line breaks inside quoted cells', () => {
    const parsed = parseCsvBody(buffer('msg,n\n"hello, world",1\n"say ""hi""",2\n"two\nlines",3\n'));
    expect(parsed.events).toEqual([
      { msg: 'hello, world', n: 1 },
      { msg: 'say "hi"', n: 2 },
      { msg: 'two\nlines', n: 3 },
    ]);
  });

  it('uses the csv-delimiter parameter, with \\t meaning a tab', () => {
    expect(parseCsvBody(buffer('a;b\n1;x\n'), { csvDelimiter: ';' }).events).toEqual([{ a: 1, b: 'x' }]);
    expect(parseCsvBody(buffer('a\tb\n1\tx\n'), { csvDelimiter: '\\t' }).events).toEqual([{ a: 1, b: 'x' }]);
  });

  it('takes field names from X-Axiom-CSV-Fields when given, reading every line as data', () => {
    expect(parseCsvBody(buffer('1,x\n2,y\n'), { csvFields: ['n', 'name'] }).events).toEqual([
      { n: 1, name: 'x' },
      { n: 2, name: 'y' },
    ]);
  });

  it('strips a byte order mark and keeps integers too large for a double as text', () => {
    expect(parseCsvBody(buffer('\uFEFFid\n12345678901234567890\n')).events).toEqual([{ id: '12345678901234567890' }]);
  });

  it('refuses records with the wrong number of fields and unterminated quotes', () => {
    expect(kindOf(() => parseCsvBody(buffer('a,b\n1,2,3\n')))).toMatch(/^invalid_input: request body is not valid CSV/);
    expect(kindOf(() => parseCsvBody(buffer('a,b\n"1,2\n')))).toMatch(/^invalid_input: request body is not valid CSV/);
    expect(kindOf(() => parseCsvBody(buffer('a,,b\n1,2,3\n')))).toBe('invalid_input: the CSV header has an empty field name');
  });

  it('refuses more records than the event limit', () => {
    const body = `n\n${Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, (_, i) => i).join('\n')}\n`;
    expect(kindOf(() => parseCsvBody(buffer(body)))).toMatch(/^payload_too_large/);
  });

  it('refuses delimiters that cannot work', () => {
    expect(kindOf(() => parseCsvBody(buffer('a\n1\n'), { csvDelimiter: '"' }))).toMatch(/^invalid_input: csv-delimiter/);
  });

  it('reads cells exactly as JSON numbers or booleans only', () => {
    expect(csvCellValue('1e3')).toBe(1000);
    expect(csvCellValue('0.5')).toBe(0.5);
    expect(csvCellValue('.5')).toBe('.5');
    expect(csvCellValue('+1')).toBe('+1');
    expect(csvCellValue('TRUE')).toBe('TRUE');
    expect(csvCellValue('')).toBeUndefined();
  });
});

describe('parseBody', () => {
  it('dispatches by format', () => {
    expect(parseBody(buffer('{"a":1}'), 'json').events).toEqual([{ a: 1 }]);
    expect(parseBody(buffer('{"a":1}\n{"a":2}'), 'ndjson').events).toHaveLength(2);
    expect(parseBody(buffer('a\n1'), 'csv').events).toEqual([{ a: 1 }]);
  });
});
