// The `timestamp-format` query parameter: a Go time layout, as Axiom documents it (the reference
// time `Mon Jan 2 15:04:05 -0700 MST 2006`, https://pkg.go.dev/time#Parse), or the name of one
// of Go's predefined layouts (`RFC3339`, `RFC1123Z`, `UnixDate`, `Kitchen`, `DateTime`, ...).
//
// Parsing follows Go's rules: month and weekday names match without regard to case, a
// fractional second may follow the seconds even when the layout has none, a zone abbreviation
// (`MST`) other than UTC/GMT means UTC unless a numeric offset is also given. Where Go would
// use the year 0, this parser uses the receive time: a layout without a year takes the receive
// year, and one with neither month nor day takes the receive date.
import { civilToNs, InvalidTimeError } from './timestamp';

export const GO_LAYOUT_NAMES: Record<string, string> = {
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
  Stamp: 'Jan _2 15:04:05',
  StampMilli: 'Jan _2 15:04:05.000',
  StampMicro: 'Jan _2 15:04:05.000000',
  StampNano: 'Jan _2 15:04:05.000000000',
  DateTime: '2006-01-02 15:04:05',
  DateOnly: '2006-01-02',
  TimeOnly: '15:04:05',
};

type Token =
  | 'longMonth' | 'month' | 'numMonth' | 'zeroMonth'
  | 'longWeekDay' | 'weekDay'
  | 'day' | 'underDay' | 'zeroDay' | 'underYearDay' | 'zeroYearDay'
  | 'hour' | 'hour12' | 'zeroHour12' | 'minute' | 'zeroMinute' | 'second' | 'zeroSecond'
  | 'longYear' | 'year'
  | 'PM' | 'pm'
  | 'tzAbbreviation'
  | 'numTZ' | 'numShortTZ' | 'numColonTZ' | 'numSecondsTZ' | 'numColonSecondsTZ'
  | 'isoTZ' | 'isoShortTZ' | 'isoColonTZ' | 'isoSecondsTZ' | 'isoColonSecondsTZ';

type Part =
  | { kind: 'literal'; text: string }
  | { kind: 'token'; token: Token }
  | { kind: 'fraction'; digits: number; optional: boolean };

// Longest first where one token is a prefix of another, as Go scans them.
const TOKEN_TEXTS: [string, Token][] = [
  ['January', 'longMonth'], ['Jan', 'month'],
  ['Monday', 'longWeekDay'], ['Mon', 'weekDay'],
  ['MST', 'tzAbbreviation'],
  ['2006', 'longYear'], ['002', 'zeroYearDay'], ['__2', 'underYearDay'], ['_2', 'underDay'],
  ['01', 'zeroMonth'], ['02', 'zeroDay'], ['03', 'zeroHour12'], ['04', 'zeroMinute'], ['05', 'zeroSecond'], ['06', 'year'],
  ['15', 'hour'], ['1', 'numMonth'], ['2', 'day'], ['3', 'hour12'], ['4', 'minute'], ['5', 'second'],
  ['PM', 'PM'], ['pm', 'pm'],
  ['-07:00:00', 'numColonSecondsTZ'], ['-070000', 'numSecondsTZ'], ['-07:00', 'numColonTZ'], ['-0700', 'numTZ'], ['-07', 'numShortTZ'],
  ['Z07:00:00', 'isoColonSecondsTZ'], ['Z070000', 'isoSecondsTZ'], ['Z07:00', 'isoColonTZ'], ['Z0700', 'isoTZ'], ['Z07', 'isoShortTZ'],
];

function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

export function compileLayoutParts(layout: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let index = 0;
  const flushLiteral = () => {
    if (literal) parts.push({ kind: 'literal', text: literal });
    literal = '';
  };
  outer: while (index < layout.length) {
    const char = layout[index]!;
    if ((char === '.' || char === ',') && (layout[index + 1] === '0' || layout[index + 1] === '9')) {
      const digit = layout[index + 1];
      let end = index + 1;
      while (layout[end] === digit) end++;
      if (!isDigitAt(layout, end)) {
        flushLiteral();
        parts.push({ kind: 'fraction', digits: end - index - 1, optional: digit === '9' });
        index = end;
        continue;
      }
    }
    for (const [text, token] of TOKEN_TEXTS) {
      if (!layout.startsWith(text, index)) continue;
      // "2006" after "_" is still the year (Go reads "_2006" as "_" then the year).
      if (token === 'underDay' && layout.startsWith('_2006', index)) break;
      flushLiteral();
      parts.push({ kind: 'token', token });
      index += text.length;
      continue outer;
    }
    literal += char;
    index++;
  }
  flushLiteral();
  return parts;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

class Cursor {
  position = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new InvalidTimeError(`"${this.text}" does not match the timestamp format: expected ${what} at position ${this.position + 1}`);
  }

  /** One or two digits (`fixed` requires two), as Go's getnum. */
  number(fixed: boolean, what: string): number {
    const { text, position } = this;
    if (!isDigitAt(text, position)) this.fail(what);
    if (!isDigitAt(text, position + 1)) {
      if (fixed) this.fail(`two digits of ${what}`);
      this.position += 1;
      return text.charCodeAt(position) - 48;
    }
    this.position += 2;
    return (text.charCodeAt(position) - 48) * 10 + (text.charCodeAt(position + 1) - 48);
  }

  digits(count: number, what: string): number {
    for (let i = 0; i < count; i++) if (!isDigitAt(this.text, this.position + i)) this.fail(`${count} digits of ${what}`);
    const value = Number(this.text.slice(this.position, this.position + count));
    this.position += count;
    return value;
  }

  name(names: string[], minLength: number | undefined, what: string): number {
    const rest = this.text.slice(this.position).toLowerCase();
    for (let i = 0; i < names.length; i++) {
      const candidate = minLength ? names[i]!.slice(0, minLength) : names[i]!;
      if (rest.startsWith(candidate)) {
        this.position += candidate.length;
        return i;
      }
    }
    return this.fail(what);
  }
}

interface Fields {
  year?: number;
  month?: number;
  day?: number;
  yearDay?: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  pm?: boolean;
  offsetSeconds?: number;
  hour12: boolean;
}

function readFraction(cursor: Cursor, fields: Fields) {
  const start = cursor.position + 1;
  let end = start;
  while (isDigitAt(cursor.text, end)) end++;
  fields.nanosecond = Number(cursor.text.slice(start, end).slice(0, 9).padEnd(9, '0'));
  cursor.position = end;
}

function readNumericZone(cursor: Cursor, fields: Fields, token: Token) {
  const { text } = cursor;
  const iso = token.startsWith('iso');
  if (iso && (text[cursor.position] === 'Z' || text[cursor.position] === 'z')) {
    cursor.position++;
    fields.offsetSeconds = 0;
    return;
  }
  const sign = text[cursor.position];
  if (sign !== '+' && sign !== '-') cursor.fail('a zone offset');
  cursor.position++;
  const colon = token.endsWith('ColonTZ') || token.endsWith('ColonSecondsTZ');
  const hours = cursor.digits(2, 'the zone offset');
  let minutes = 0;
  let seconds = 0;
  if (!token.endsWith('ShortTZ')) {
    if (colon && text[cursor.position++] !== ':') cursor.fail('":" in the zone offset');
    minutes = cursor.digits(2, 'the zone offset');
    if (token.endsWith('SecondsTZ')) {
      if (colon && text[cursor.position++] !== ':') cursor.fail('":" in the zone offset');
      seconds = cursor.digits(2, 'the zone offset');
    }
  }
  fields.offsetSeconds = (sign === '-' ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds);
}

function readToken(cursor: Cursor, fields: Fields, token: Token, nextIsFraction: boolean) {
  switch (token) {
    case 'longYear':
      fields.year = cursor.digits(4, 'the year');
      return;
    case 'year': {
      const year = cursor.digits(2, 'the year');
      fields.year = year >= 69 ? 1900 + year : 2000 + year;
      return;
    }
    case 'longMonth':
      fields.month = cursor.name(MONTHS, undefined, 'a month name') + 1;
      return;
    case 'month':
      fields.month = cursor.name(MONTHS, 3, 'a month abbreviation') + 1;
      return;
    case 'numMonth':
    case 'zeroMonth':
      fields.month = cursor.number(token === 'zeroMonth', 'the month');
      return;
    case 'longWeekDay':
      cursor.name(WEEKDAYS, undefined, 'a weekday name');
      return;
    case 'weekDay':
      cursor.name(WEEKDAYS, 3, 'a weekday abbreviation');
      return;
    case 'underDay':
      if (cursor.text[cursor.position] === ' ') cursor.position++;
      fields.day = cursor.number(false, 'the day');
      return;
    case 'day':
    case 'zeroDay':
      fields.day = cursor.number(token === 'zeroDay', 'the day');
      return;
    case 'zeroYearDay':
      fields.yearDay = cursor.digits(3, 'the day of the year');
      return;
    case 'underYearDay': {
      while (cursor.text[cursor.position] === ' ') cursor.position++;
      let end = cursor.position;
      while (end - cursor.position < 3 && isDigitAt(cursor.text, end)) end++;
      if (end === cursor.position) cursor.fail('the day of the year');
      fields.yearDay = Number(cursor.text.slice(cursor.position, end));
      cursor.position = end;
      return;
    }
    case 'hour':
      fields.hour = cursor.number(false, 'the hour');
      return;
    case 'hour12':
    case 'zeroHour12':
      fields.hour = cursor.number(token === 'zeroHour12', 'the hour');
      fields.hour12 = true;
      if (fields.hour < 1 || fields.hour > 12) cursor.fail('an hour from 1 to 12');
      return;
    case 'minute':
    case 'zeroMinute':
      fields.minute = cursor.number(token === 'zeroMinute', 'the minute');
      return;
    case 'second':
    case 'zeroSecond':
      fields.second = cursor.number(token === 'zeroSecond', 'the second');
      // Go accepts a fraction right after the seconds even when the layout has none.
      if (!nextIsFraction && (cursor.text[cursor.position] === '.' || cursor.text[cursor.position] === ',') && isDigitAt(cursor.text, cursor.position + 1)) {
        readFraction(cursor, fields);
      }
      return;
    case 'PM':
    case 'pm': {
      const marker = cursor.text.slice(cursor.position, cursor.position + 2).toUpperCase();
      if (marker !== 'AM' && marker !== 'PM') cursor.fail('AM or PM');
      fields.pm = marker === 'PM';
      cursor.position += 2;
      return;
    }
    case 'tzAbbreviation': {
      const match = /^(?:[A-Z]{3,5}|[+-]\d\d)/.exec(cursor.text.slice(cursor.position));
      if (!match) cursor.fail('a time zone abbreviation');
      cursor.position += match[0].length;
      if (match[0].startsWith('+') || match[0].startsWith('-')) fields.offsetSeconds ??= Number(match[0]) * 3600;
      return;
    }
    default:
      readNumericZone(cursor, fields, token);
  }
}

export type TimeLayoutParser = (text: string, receivedAt: Date) => bigint;

/** Compiles a Go layout (or predefined layout name); throws InvalidTimeError for an empty one. */
export function compileGoLayout(layoutOrName: string): TimeLayoutParser {
  const layout = GO_LAYOUT_NAMES[layoutOrName] ?? layoutOrName;
  const parts = compileLayoutParts(layout);
  if (!parts.some((part) => part.kind !== 'literal')) {
    throw new InvalidTimeError(`timestamp-format "${layoutOrName}" has no date or time elements; write it with Go's reference time "2006-01-02T15:04:05Z07:00" or name a Go layout such as RFC3339`);
  }
  return (text, receivedAt) => {
    const cursor = new Cursor(text);
    const fields: Fields = { hour: 0, minute: 0, second: 0, nanosecond: 0, hour12: false };
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.kind === 'literal') {
        if (!text.startsWith(part.text, cursor.position)) cursor.fail(`"${part.text}"`);
        cursor.position += part.text.length;
      } else if (part.kind === 'fraction') {
        const separator = text[cursor.position];
        const hasFraction = (separator === '.' || separator === ',') && isDigitAt(text, cursor.position + 1);
        if (!hasFraction) {
          if (part.optional) continue;
          cursor.fail(`a fraction of ${part.digits} digits`);
        }
        if (part.optional) {
          readFraction(cursor, fields);
        } else {
          const start = cursor.position + 1;
          cursor.position = start;
          cursor.digits(part.digits, 'the fraction');
          fields.nanosecond = Number(text.slice(start, cursor.position).slice(0, 9).padEnd(9, '0'));
        }
      } else {
        readToken(cursor, fields, part.token, parts[i + 1]?.kind === 'fraction');
      }
    }
    if (cursor.position !== text.length) cursor.fail('the end of the text');
    return resolveFields(fields, receivedAt);
  };
}

function resolveFields(fields: Fields, receivedAt: Date): bigint {
  let hour = fields.hour;
  if (fields.hour12 || fields.pm !== undefined) {
    if (fields.pm === true && hour < 12) hour += 12;
    if (fields.pm === false && hour === 12) hour = 0;
  }
  const year = fields.year ?? receivedAt.getUTCFullYear();
  let month = fields.month;
  let day = fields.day;
  if (fields.yearDay !== undefined) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    if (fields.yearDay < 1 || fields.yearDay > (leap ? 366 : 365)) throw new InvalidTimeError(`day of the year ${fields.yearDay} is out of range`);
    const date = new Date(0);
    date.setUTCFullYear(year, 0, fields.yearDay);
    month = date.getUTCMonth() + 1;
    day = date.getUTCDate();
  }
  if (month === undefined && day === undefined) {
    month = receivedAt.getUTCMonth() + 1;
    day = receivedAt.getUTCDate();
  }
  return civilToNs({
    year,
    month: month ?? receivedAt.getUTCMonth() + 1,
    day: day ?? 1,
    hour,
    minute: fields.minute,
    second: fields.second,
    nanosecond: fields.nanosecond,
    offsetSeconds: fields.offsetSeconds ?? 0,
  });
}
