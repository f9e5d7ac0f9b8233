// Unit tests of the shippers' parsers, on inputs written here by hand: Loki label sets, RFC 5424
// messages in logplex frames, HEC envelopes back to back, Elasticsearch bulk bodies and
// filter_path, and the Authorization schemes.
import { describe, expect, it } from 'vitest';
import { tokenFromAuthorization } from '../../../src/auth/schemes';
import { DomainError } from '../../../src/errors';
import type { RawEvent } from '../../../src/ingest/parse-body';
import { bulkResponseJson, parseFilterPath, readBulk } from '../../../src/shippers/elastic-bulk';
import { parseHecEnvelopes, readHecRaw } from '../../../src/shippers/hec';
import { parseSyslogMessage, readLogplexBody } from '../../../src/shippers/logplex';
import { parseLabelSet } from '../../../src/shippers/loki/labels';
import { isSemanticConventionAttribute } from '../../../src/shippers/otlp/semconv';

function failure(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}: ${error.message}` : `other: ${String(error)}`;
  }
  return undefined;
}

const collect = (read: (visit: (event: RawEvent) => void) => number) => {
  const events: RawEvent[] = [];
  const count = read((event) => events.push(event));
  expect(count).toBe(events.length);
  return events;
};

describe('Loki label sets', () => {
  it('reads names, quoted values with escapes, spaces and an empty set', () => {
    expect(parseLabelSet('{job="api", level="info"}')).toEqual({ job: 'api', level: 'info' });
    expect(parseLabelSet(' { a = "x\\"y" ,b="tab\\there",c="back\\\\slash" } ')).toEqual({ a: 'x"y', b: 'tab\there', c: 'back\\slash' });
    expect(parseLabelSet('{}')).toEqual({});
  });

  it('refuses what is not a label set', () => {
    for (const text of ['job="api"', '{job=api}', '{job="api"', '{job="api"} x', '{1job="x"}', '{job="a" level="b"}']) {
      expect(failure(() => parseLabelSet(text)), text).toMatch(/^invalid_input: stream labels .* are not a label set/);
    }
  });
});

describe('RFC 5424 messages and logplex frames', () => {
  it('reads the header, nil values, structured data and the text', () => {
    expect(parseSyslogMessage('<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - BOM\'su root\' failed')).toEqual({
      facility: 'auth',
      severity: 'crit',
      _time: '2003-10-11T22:14:15.003Z',
      hostname: 'mymachine.example.com',
      appname: 'su',
      msgid: 'ID47',
      message: "BOM'su root' failed",
    });
    expect(parseSyslogMessage('<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - [exampleSDID@32473 iut="3" eventSource="Application"]')).toEqual({
      facility: 'local4',
      severity: 'notice',
      _time: '2003-08-24T05:14:15.000003-07:00',
      hostname: '192.0.2.1',
      appname: 'myproc',
      procid: '8710',
      structured_data: { 'exampleSDID@32473': { iut: '3', eventSource: 'Application' } },
    });
    expect(parseSyslogMessage('not syslog at all')).toEqual({ message: 'not syslog at all' });
    expect(parseSyslogMessage('<999>1 x')).toEqual({ message: '<999>1 x' });
  });

  it('splits octet-counted frames, counting bytes of multi-byte text', () => {
    const messages = ['<13>1 - h a - - héllo wörld', '<13>1 - h a - - second'];
    const body = Buffer.from(messages.map((message) => `${Buffer.byteLength(message)} ${message}\n`).join(''));
    expect(collect((visit) => readLogplexBody(body, (event) => visit(event))).map((event) => event.message)).toEqual(['héllo wörld', 'second']);
    expect(failure(() => readLogplexBody(Buffer.from('5 <13>1 - h a - - too long'), () => {}))).toMatch(/^invalid_input: logplex frame 2 /);
    expect(failure(() => readLogplexBody(Buffer.from('0 '), () => {}))).toMatch(/^invalid_input: logplex frame 1 does not start/);
  });
});

describe('HEC envelopes', () => {
  it('finds envelopes back to back even with braces and quotes inside strings', () => {
    const body = Buffer.from('{"event":"a } { \\" b"}{"event":{"x":[1,{"y":"}"}]},"time":1}\r\n\t{"event":3}');
    const { events, firstIndex } = parseHecEnvelopes(body);
    expect(events).toEqual([{ _raw: 'a } { " b' }, { x: [1, { y: '}' }], _time: 1 }, { _raw: '3' }]);
    expect(firstIndex).toBeUndefined();
  });

  it('puts metadata under fields under the event, and the envelope time over the event time', () => {
    const { events, firstIndex } = parseHecEnvelopes(
      Buffer.from('{"index":"ds","host":"h","fields":{"host":"from-fields","k":"v"},"event":{"k":"from-event","_time":"2020-01-01T00:00:00Z"},"time":"1600000000"}'),
    );
    expect(events).toEqual([{ host: 'from-fields', index: 'ds', k: 'from-event', _time: '1600000000' }]);
    expect(firstIndex).toBe('ds');
  });

  it('reads raw text line by line, or a JSON object as one event', () => {
    const lines = collect((visit) => readHecRaw(Buffer.from('one\n\r\ntwo\r\n'), { host: 'h' }, false, (event) => visit(event)));
    expect(lines).toEqual([{ host: 'h', _raw: 'one' }, { host: 'h', _raw: 'two' }]);
    const json = collect((visit) => readHecRaw(Buffer.from('{"a":1}'), { source: 's' }, true, (event) => visit(event)));
    expect(json).toEqual([{ source: 's', a: 1 }]);
  });
});

describe('Elasticsearch bulk bodies', () => {
  it('pairs actions with documents, skips delete documents, keeps ids and indexes', () => {
    const body = Buffer.from(
      ['{"index":{"_index":"a","_id":"1"}}', '{"@timestamp":"2024-01-01T00:00:00Z","m":1}', '{"delete":{"_id":"2"}}', '{"create":{"_id":7}}', '{"m":2,"_time":5}', ''].join('\n'),
    );
    const events: RawEvent[] = [];
    const sizes: (number | undefined)[] = [];
    const parsed = readBulk(body, 'dataset', (event, size) => {
      events.push(event);
      sizes.push(size);
    });
    expect(parsed.count).toBe(2);
    expect(events).toEqual([{ _time: '2024-01-01T00:00:00Z', m: 1 }, { m: 2, _time: 5 }]);
    expect(sizes).toEqual([Buffer.byteLength('{"@timestamp":"2024-01-01T00:00:00Z","m":1}'), Buffer.byteLength('{"m":2,"_time":5}')]);
    expect(parsed.actions).toEqual(['index', 'delete', 'create']);
    expect(parsed.indexes).toEqual(['a', 'dataset', 'dataset']);
    expect(parsed.ids).toEqual(['1', '2', '7']);
    expect(parsed.events).toEqual([0, -1, 1]);
    expect([...parsed.refused.keys()]).toEqual([1]);
    const answer = JSON.parse(bulkResponseJson(parsed, [{ index: 1, error: 'bad' }], 3));
    expect(answer.errors).toBe(true);
    expect(answer.items.map((item: Record<string, { status: number }>) => Object.values(item)[0]!.status)).toEqual([201, 400, 400]);
    expect(answer.items[0].index).toEqual({ _index: 'a', _id: '1', _version: 1, result: 'created', _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: 0, _primary_term: 1, status: 201 });
  });

  it('generates distinct ids of Elasticsearch\'s form', () => {
    const parsed = readBulk(Buffer.from('{"index":{}}\n{}\n'.repeat(50)), 'd', () => {});
    const answer = JSON.parse(bulkResponseJson(parsed, [], 1));
    const ids = new Set(answer.items.map((item: { index: { _id: string } }) => item.index._id));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  it('understands the filter_path patterns shippers send', () => {
    expect(parseFilterPath(undefined)).toEqual({ took: true, errors: true, items: 'all' });
    expect(parseFilterPath('errors,items.*.error,items.*.status')).toEqual({ took: false, errors: true, items: new Set(['error', 'status']) });
    expect(parseFilterPath('took,items.*')).toEqual({ took: true, errors: false, items: 'all' });
    expect(parseFilterPath('items.*.error.reason')).toEqual({ took: false, errors: false, items: new Set(['error']) });
  });
});

describe('Authorization schemes', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it('takes the token from each accepted scheme', () => {
    expect(tokenFromAuthorization('Bearer abc')).toBe('abc');
    expect(tokenFromAuthorization(`Basic ${b64('axiom:tok:with:colons')}`, ['basic'])).toBe('tok:with:colons');
    expect(tokenFromAuthorization(`Basic ${b64('onlyuser:')}`, ['basic'])).toBe('onlyuser');
    expect(tokenFromAuthorization(`ApiKey ${b64('axiom:tok')}`, ['apikey'])).toBe('tok');
    expect(tokenFromAuthorization('ApiKey already-a-token', ['apikey'])).toBe('already-a-token');
    expect(tokenFromAuthorization('splunk tok', ['splunk'])).toBe('tok');
  });

  it('refuses schemes the route does not accept and malformed credentials with 401', () => {
    expect(failure(() => tokenFromAuthorization(`Basic ${b64('a:b')}`))).toMatch(/^unauthenticated: malformed Authorization header/);
    expect(failure(() => tokenFromAuthorization('Basic !!!', ['basic']))).toMatch(/^unauthenticated: malformed Authorization header: Basic/);
    expect(failure(() => tokenFromAuthorization(undefined, ['bearer', 'basic']))).toMatch(/^unauthenticated: missing Authorization header/);
  });
});

describe('semantic convention attribute names', () => {
  it('knows current, deprecated and templated names, and nothing else', () => {
    for (const name of ['http.request.method', 'http.method', 'service.name', 'db.system.name', 'http.request.header.x-request-id']) {
      expect(isSemanticConventionAttribute(name), name).toBe(true);
    }
    for (const name of ['my.custom.key', 'order.id', 'http.request.header.', 'retry.count']) {
      expect(isSemanticConventionAttribute(name), name).toBe(false);
    }
  });
});
