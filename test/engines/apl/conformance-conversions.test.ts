// Conversion, type, conditional and null functions; expected values by hand or plain JS.
import { describe } from 'vitest';
import { type FxEvent, perEvent, scalars, useFixture } from '../../helpers/apl/conformance-functions';

const db = useFixture();
const nanos = (iso: string) => (BigInt(Date.parse(iso)) * 1_000_000n).toString();
/** Luhn, for the expected values of iscc and isimei. */
const luhn = (digits: string) =>
  [...digits]
    .reverse()
    .map((d, i) => (i % 2 === 1 ? (Number(d) * 2 > 9 ? Number(d) * 2 - 9 : Number(d) * 2) : Number(d)))
    .reduce((a, b) => a + b, 0) %
    10 ===
  0;

describe('to<type>', () => {
  perEvent(db, [
    ['tostring(n)', (e) => (e.n === undefined ? '' : String(e.n))],
    // A null bool prints as "false", as Axiom documents.
    ['tostring(flag)', (e) => String(e.flag ?? false)],
    ['toint(x)', (e) => (e.x === undefined ? null : Math.trunc(e.x) + 0)],
    ['todouble(n)', (e) => e.n ?? null],
    ['tobool(n)', (e) => (e.n === undefined ? null : e.n !== 0)],
    ['toint(tostring(n))', (e) => e.n ?? null],
    ['todynamic(tostring(bag))', (e) => e.bag ?? null],
  ]);
  scalars(db, [
    ["toint('+12')", 12],
    ["toint(' 7 ')", 7],
    ["toint('0x10')", null],
    ["toint('1.5')", null],
    ['toint(true)', 1],
    ['tolong(2s)', 2_000_000_000],
    ['tolong(datetime(2024-01-01))', nanos('2024-01-01T00:00:00Z')],
    ["todouble('1e3')", 1000],
    ["toreal('x')", null],
    ['todouble(1ms)', 1_000_000],
    ['toreal(false)', 0],
    ["tobool('t')", true],
    ["tobool('True')", true],
    ["tobool('0')", false],
    ["tobool('F')", false],
    ["tobool('yes')", null],
    ['tobool(0.0)', false],
    ['tobool(datetime(1970-01-01))', false],
    ['tobool(datetime(2024-01-01))', true],
    ['toboolean(1)', true],
    ['todatetime(1704067200000000000)', '2024-01-01T00:00:00Z'],
    ["todatetime('2024-01-02 03:04:05')", '2024-01-02T03:04:05Z'],
    ["todatetime('2024/01/02')", '2024-01-02T00:00:00Z'],
    ["todatetime('01/02/2024 03:04:05')", '2024-01-02T03:04:05Z'],
    ["todatetime('Jan 2, 2024')", '2024-01-02T00:00:00Z'],
    ["todatetime('Tue, 02 Jan 2024 03:04:05 +0100')", '2024-01-02T02:04:05Z'],
    ["todatetime('1704164645')", '2024-01-02T03:04:05Z'],
    ["todatetime('1704164645123')", '2024-01-02T03:04:05.123Z'],
    ["todatetime('tomorrow-ish')", null],
    ["totimespan('300ms')", '300ms'],
    ["totimespan('-1.5h')", '-1h30m0s'],
    ["totimespan('2h45m')", '2h45m0s'],
    ["totimespan('1.02:03:04.5')", '26h3m4.5s'],
    ["totimespan('00:00:05')", '5s'],
    ['totimespan(1500)', '1.5µs'],
    ["totimespan('soon')", null],
    ['tostring(1.5h)', '1h30m0s'],
    ['tostring(datetime(2024-01-02T03:04:05.5Z))', '2024-01-02T03:04:05.5Z'],
    ['tostring(int(null))', ''],
    ["todynamic('[1, {\"a\": 2}]')", [1, { a: 2 }]],
    ["todynamic('not json')", null],
    ["parse_json('not json')", 'not json'],
    ["parse_json('{\"a\": [1, 2]}').a[1]", 2],
    ["toarray('123')", ['123']],
    ["toarray(dynamic({'a': 1, 'b': [2]}))", [1, [2]]],
    ['toarray(dynamic([1, 2]))', [1, 2]],
    ['toarray(dynamic(null))', []],
    ['tohex(255)', 'ff'],
    ['tohex(-546)', (2n ** 64n - 546n).toString(16)],
    ['tohex(12345, 8)', (12345).toString(16).padStart(8, '0')],
    // A width read from a field (42 here), and a null width, which pads nothing.
    ['tohex(26, n)', (26).toString(16).padStart(42, '0')],
    ['tohex(255, int(null))', 'ff'],
    ["dynamic_to_json(dynamic({'b': {'z': 1, 'a': [3, {'y': 0, 'x': 1}]}, 'a': true}))", '{"a":true,"b":{"a":[3,{"x":1,"y":0}],"z":1}}'],
    ['dynamic_to_json(42)', '42'],
    // The type-named spellings and Kusto's older names.
    ["todecimal('1.5')", 1.5],
    ["toobject('{\"a\": 1}')", { a: 1 }],
    ["long('7')", 7],
    ["real('2.5')", 2.5],
    ['double(3)', 3],
    ["bool('true')", true],
    ['boolean(0)', false],
    ['string(5)', '5'],
    ["ensure_field('n', typeof(long))", 42],
    ["ensure_field('missing', typeof(string))", null],
    ["ensure_field('n', typeof(string))", '42'],
  ]);
});

describe('types', () => {
  perEvent(db, [
    ['gettype(bag)', (e) => (e.bag === undefined ? 'null' : 'dictionary')],
    ['gettype(arr)', (e) => (e.arr === undefined ? 'null' : 'array')],
    ['isstring(text)', (e) => e.text !== undefined],
    ['isbool(flag)', (e) => e.flag !== undefined],
    ['isreal(x)', (e) => e.x !== undefined],
    ['ismap(bag)', (e) => e.bag !== undefined],
    ['isutf8(text)', (e) => e.text !== undefined],
  ]);
  scalars(db, [
    ['gettype(1)', 'long'],
    ['gettype(1.5)', 'real'],
    ["gettype('s')", 'string'],
    ['gettype(1s)', 'timespan'],
    ['gettype(now())', 'datetime'],
    ['gettype(true)', 'bool'],
    ["gettype(dynamic({'a': 1}).a)", 'long'],
    ['isstring(123)', false],
    ["isstring(dynamic('x'))", true],
    ['isbool(dynamic(false))', true],
    ["isbool('true')", false],
    ['isreal(1.0 / 0)', false],
    ['isreal(dynamic(2.5))', true],
    ["isreal('1.5')", false],
    ['ismap(dynamic([1]))', false],
    ['iscc("4111111111111111")', luhn('4111111111111111')],
    ['iscc("4111-1111-1111-1111")', true],
    ['iscc("4111111111111112")', luhn('4111111111111112')],
    ['iscc("1234567812345670")', false],
    ['isimei("356938035643809")', luhn('356938035643809')],
    ['isimei("356938035643808")', luhn('356938035643808')],
    ['isimei("12345")', false],
  ]);
});

describe('conditionals and nulls', () => {
  const text = (e: FxEvent) => e.text;
  perEvent(db, [
    ["iff(n > 0, 'pos', 'not')", (e) => ((e.n ?? 0) > 0 ? 'pos' : 'not')],
    ["iif(isnull(n), -1, n)", (e) => e.n ?? -1],
    ["case(n > 100, 'big', n > 0, 'small', 'none')", (e) => (e.n === undefined ? 'none' : e.n > 100 ? 'big' : e.n > 0 ? 'small' : 'none')],
    ["coalesce(text, group, 'none')", (e) => text(e) ?? e.group ?? 'none'],
    ['isnull(x)', (e) => e.x === undefined],
    ['isnotnull(x)', (e) => e.x !== undefined],
    ['isempty(text)', (e) => !text(e)],
    ['isnotempty(text)', (e) => !!text(e)],
    ['not(flag)', (e) => (e.flag === undefined ? null : !e.flag)],
  ]);
});

describe('a value that fails in its row gives null there, never an error for the query', () => {
  const text = (e: FxEvent) => e.text;
  perEvent(db, [
    ["extract(iff(id == 2, '(', 'l+'), 0, text)", (e) => (text(e) === undefined || e.id === 2 ? null : (/l+/.exec(text(e)!)?.[0] ?? null))],
    ["text matches regex iff(id == 2, '(', 'o')", (e) => (text(e) === undefined || e.id === 2 ? null : text(e)!.includes('o'))],
    ["base64_decode_tostring(iff(id == 3, '%%%', 'aGk='))", (e) => (e.id === 3 ? null : 'hi')],
    ["datetime_add('year', iff(id == 4, 100000, 1), datetime(2024-01-01))", (e) => (e.id === 4 ? null : '2025-01-01T00:00:00Z')],
    ["todatetime(iff(id == 5, 'garbage', '2024-01-01'))", (e) => (e.id === 5 ? null : '2024-01-01T00:00:00Z')],
    ["toint(iff(id == 1, 'x', '5'))", (e) => (e.id === 1 ? null : 5)],
    ['n / iff(id == 3, 0, 1)', (e) => (e.n === undefined || e.id === 3 ? null : e.n)],
    ["url_decode(iff(id == 2, '%E0%A4%A', 'a%20b'))", (e) => (e.id === 2 ? null : 'a b')],
  ]);
});
