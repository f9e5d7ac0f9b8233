// Fixture events for the conformance of tabular operators and statements: parcel shipments with
// arrays, bags, key/value notes and addresses, and a small table of carriers to join them with.
import type { FieldType } from '../../../src/fields/types';

export interface Shipment {
  _time: string;
  _rowId: bigint;
  carrier: string;
  region: string;
  weight: number;
  items: string[] | null;
  attrs: Record<string, unknown> | null;
  note: string;
  tracking: string;
  email: string | null;
  state: string;
}

export const SHIPMENT_FIELDS: { name: string; type: FieldType }[] = [
  { name: 'carrier', type: 'string' },
  { name: 'region', type: 'string' },
  { name: 'weight', type: 'float' },
  { name: 'items', type: 'array' },
  { name: 'attrs', type: 'array' },
  { name: 'note', type: 'string' },
  { name: 'tracking', type: 'string' },
  { name: 'email', type: 'string' },
  { name: 'state', type: 'string' },
];

const s = (
  rowId: number,
  time: string,
  carrier: string,
  region: string,
  weight: number,
  items: string[] | null,
  attrs: Record<string, unknown> | null,
  note: string,
  email: string | null,
  state: string,
): Shipment => ({
  _time: `2024-05-01T${time}Z`,
  _rowId: BigInt(rowId),
  carrier,
  region,
  weight,
  items,
  attrs,
  note,
  tracking: `TRK-${1000 + (rowId - 300)}`,
  email,
  state,
});

export const SHIPMENTS: Shipment[] = [
  s(301, '00:10:00', 'dhl', 'eu', 2.5, ['a', 'b'], { fragile: true, size: 'S' }, 'prio=high;zone=B;eta=3', 'ann@example.com', 'delivered'),
  s(302, '00:25:00', 'ups', 'us', 10, ['c'], { size: 'L' }, 'prio=low;zone=A', 'bo@example.org', 'in transit'),
  s(303, '00:50:00', 'dhl', 'eu', 1.25, [], {}, 'zone=C;prio=high', null, 'delivered'),
  s(304, '01:05:00', 'fedex', 'us', 7.75, ['d', 'e', 'f'], { fragile: false }, 'eta=9', 'cy@example.com', 'lost'),
  s(305, '01:40:00', 'dhl', 'ap', 3, ['a'], null, 'prio=mid;zone=B;eta=1', 'di@example.net', 'in transit'),
  s(306, '02:15:00', 'ups', 'eu', 0, ['b', 'c'], { size: 'M', fragile: true }, 'prio=high', 'ed@example.com', 'delivered'),
  s(307, '03:30:00', 'postnl', 'eu', 12.5, ['g'], { size: 'XL' }, 'zone=D', 'fi@example.com', 'delivered'),
  s(308, '03:45:00', 'ups', 'us', 4, null, { size: 'S' }, '', 'gu@example.org', 'in transit'),
  s(309, '05:20:00', 'fedex', 'ap', 6.5, ['h', 'i'], { fragile: true }, 'prio=low;eta=4', 'ha@example.com', 'delivered'),
  s(310, '05:55:00', 'dhl', 'us', 8, ['a', 'j'], { size: 'L' }, 'prio=high;zone=A;eta=2', 'io@example.com', 'delivered'),
];

export interface Carrier {
  _time: string;
  _rowId: bigint;
  carrier: string;
  country: string;
  rating: number;
}

export const CARRIER_FIELDS: { name: string; type: FieldType }[] = [
  { name: 'carrier', type: 'string' },
  { name: 'country', type: 'string' },
  { name: 'rating', type: 'integer' },
];

export const CARRIERS: Carrier[] = [
  { _time: '2024-04-01T00:00:00Z', _rowId: 401n, carrier: 'dhl', country: 'DE', rating: 4 },
  { _time: '2024-04-01T00:00:01Z', _rowId: 402n, carrier: 'ups', country: 'US', rating: 3 },
  { _time: '2024-04-01T00:00:02Z', _rowId: 403n, carrier: 'fedex', country: 'US', rating: 5 },
  { _time: '2024-04-01T00:00:03Z', _rowId: 404n, carrier: 'acme', country: 'NL', rating: 2 },
  // A second row for dhl: inner joins repeat, innerunique takes one.
  { _time: '2024-04-01T00:00:04Z', _rowId: 405n, carrier: 'dhl', country: 'AT', rating: 1 },
];
