// Array, bag, set, range and pair functions over dynamic values; expected values by hand or
// plain JS over the fixture's arrays and bags.
import { describe } from 'vitest';
import { type FxEvent, perEvent, scalars, useFixture } from '../../helpers/apl/conformance-functions';

const db = useFixture();
const arr = (e: FxEvent) => e.arr;
const numbers = (e: FxEvent) => (e.series ?? []).filter((v): v is number => typeof v === 'number');

describe('arrays', () => {
  perEvent(db, [
    ['array_length(arr)', (e) => arr(e)?.length ?? null],
    ['len(arr)', (e) => arr(e)?.length ?? null],
    ['len(text)', (e) => (e.text === undefined ? null : [...e.text].length)],
    ['isarray(arr)', (e) => Array.isArray(arr(e))],
    ['isarray(bag)', () => false],
    ['array_reverse(arr)', (e) => (arr(e) ? [...arr(e)!].reverse() : null)],
    ['array_concat(arr, dynamic(["z"]))', (e) => (arr(e) ? [...arr(e)!, 'z'] : null)],
    ['strcat_array(arr, "+")', (e) => (arr(e) ? arr(e)!.map((v) => (v === null ? '' : String(v))).join('+') : null)],
    ['array_sum(series)', (e) => (numbers(e).length ? numbers(e).reduce((a, b) => a + b, 0) : null)],
    ['array_index_of(arr, "a")', (e) => (arr(e) ? arr(e)!.indexOf('a') : null)],
    ['set_has_element(arr, "x")', (e) => (arr(e) ? arr(e)!.includes('x') : null)],
  ]);
  scalars(db, [
    ['array_rotate_left(dynamic([1, 2, 3, 4, 5]), 2)', [3, 4, 5, 1, 2]],
    ['array_rotate_right(dynamic([1, 2, 3, 4, 5]), 2)', [4, 5, 1, 2, 3]],
    ['array_rotate_left(dynamic([1, 2, 3]), 7)', [2, 3, 1]],
    ['array_shift_left(dynamic([1, 2, 3]), 1)', [2, 3, null]],
    ['array_shift_right(dynamic([1, 2, 3]), 1)', [null, 1, 2]],
    ['array_shift_right(dynamic([1, 2, 3]), 2, 0)', [0, 0, 1]],
    ['array_shift_left(dynamic([1, 2, 3]), -1)', [null, 1, 2]],
    ['array_slice(dynamic([1, 2, 3, 4, 5]), 1, 3)', [2, 3]],
    ['array_slice(dynamic([1, 2, 3, 4, 5]), -3, -1)', [3, 4]],
    ['array_slice(dynamic([1, 2, 3]), 2, 10)', [3]],
    ['array_split(dynamic([1, 2, 3, 4]), 2)', [[1, 2], [3, 4]]],
    ['array_split(dynamic([1, 2, 3, 4]), dynamic([1, 3]))', [[1], [2, 3], [4]]],
    ["array_sort_asc(dynamic(['x', 'a', 'm']))", ['a', 'm', 'x']],
    ['array_sort_asc(dynamic([10, 9, 100]))', [9, 10, 100]],
    ['array_sort_desc(dynamic([10, null, 9, 100]))', [100, 10, 9, null]],
    ['array_sort_asc(dynamic([2, null, 1]), false)', [null, 1, 2]],
    ["array_sort_asc('not an array')", []],
    ["array_index_of(dynamic(['200', '404', '500']), '500')", 2],
    ['array_index_of(dynamic([1, 2, 1, 2]), 2, 0, -1, 2)', 3],
    ['array_index_of(dynamic([1, 2, 1, 2]), 1, -2)', 2],
    ['array_index_of(dynamic([1, 2]), 9)', -1],
    ['array_iff(dynamic([true, false, true]), dynamic([1, 2, 3]), dynamic([7, 8, 9]))', [1, 8, 3]],
    ['array_iff(dynamic([false, true]), 1, 0)', [0, 1]],
    ["array_select_dict(dynamic([{'name': 'a', 'v': 1}, {'name': 'b', 'v': 2}]), 'name', 'b')", { name: 'b', v: 2 }],
    ["array_select_dict(dynamic([{'name': 'a'}, 5]), 'name', 'z')", null],
    ["array_extract(dynamic([{'id': 1, 'ok': true}, {'id': 2, 'ok': false}]), @'$[*].ok')", ['true', 'false']],
    ["array_extract(dynamic([{'id': 1}, {'id': 2}]), @'$[*].id')", ['1', '2']],
    ['array_sum(dynamic([]))', null],
    ['pack_array(1, "two", 3.5)', [1, 'two', 3.5]],
  ]);
});

describe('property bags', () => {
  perEvent(db, [
    ["bag_has_key(bag, 'k')", (e) => (e.bag ? 'k' in e.bag : false)],
    ['bag_keys(bag)', (e) => (e.bag ? Object.keys(e.bag) : null)],
    ["bag_pack('id', id, 'group', group)", (e) => ({ id: e.id, group: e.group ?? null })],
  ]);
  scalars(db, [
    ["bag_has_key(dynamic({'a': {'b': 1}}), '$.a.b')", true],
    ["bag_has_key(dynamic({'a': 1}), 'z')", false],
    ["bag_zip(dynamic(['a', 'b', 'c']), dynamic([1, 2]))", { a: 1, b: 2 }],
    ["bag_zip(dynamic(['a', 5, 'a']), dynamic([1, 2, 3]))", { a: 1 }],
    ["pack('a', 1, 'b', 'x')", { a: 1, b: 'x' }],
    ["pack_dictionary('when', datetime(2024-01-02T03:04:05Z), 'span', 90s)", { when: '2024-01-02T03:04:05Z', span: '1m30s' }],
    ['bag_pack(strcat("k", "1"), 10)', { k1: 10 }],
  ]);
  scalars(db, [['bag_pack(*)', { _time: '2024-03-01T10:00:00Z', _sysTime: '2024-03-01T10:00:00Z', id: 1, text: 'Hello, World', n: 42, x: 3.75, flag: true, ip: '10.1.2.3', ip6: '2001:db8::10', arr: ['b', 'a', 'c'], bag: { k: 'v', n: 2 }, series: [1, 2, 3, 4], group: 'g1' }]]);
  scalars(db, [['array_length(pack_array(*))', 13]]);
});

describe('sets and ranges', () => {
  scalars(db, [
    ['set_union(dynamic([1, 2, 3]), dynamic([2, 3, 4, 5]))', [1, 2, 3, 4, 5]],
    ["set_union(dynamic(['a', 'a']), dynamic(['b']), dynamic(['a', 'c']))", ['a', 'b', 'c']],
    ['set_intersect(dynamic([1, 2, 3]), dynamic([2, 3, 4, 5]))', [2, 3]],
    ['set_intersect(dynamic([1, 2, 3]), dynamic([3, 2]), dynamic([2]))', [2]],
    ['set_difference(dynamic([1, 2, 3]), dynamic([2, 3, 4, 5]))', [1]],
    ['set_difference(dynamic([1, 1, 2, 3]), dynamic([9]))', [1, 2, 3]],
    ['set_has_element(dynamic([1, 2, 3]), 2)', true],
    ['set_has_element(dynamic([1.0, 2]), 1)', true],
    ['range(1, 8, 3)', [1, 4, 7]],
    ['range(5, 1, -2)', [5, 3, 1]],
    ['range(1, 3)', [1, 2, 3]],
    ['range(0.5, 1.5, 0.5)', [0.5, 1, 1.5]],
    ['range(datetime(2024-01-01), datetime(2024-01-01T02:00:00Z))', ['2024-01-01T00:00:00Z', '2024-01-01T01:00:00Z', '2024-01-01T02:00:00Z']],
    ['range(10m, 30m, 10m)', ['10m0s', '20m0s', '30m0s']],
    ['range(1, 0)', []],
  ]);
});

describe('pairs', () => {
  scalars(db, [
    ["pair('env', 'prod')", { key: 'env', value: 'prod', separator: ':' }],
    ["pair('env', 'prod', '=')", { key: 'env', value: 'prod', separator: '=' }],
    ["parse_pair('host:web-1:8080')", { key: 'host', value: 'web-1:8080', separator: ':' }],
    ["parse_pair('env=prod', '=')", { key: 'env', value: 'prod', separator: '=' }],
    ["parse_pair('lonely')", { key: '', value: 'lonely', separator: ':' }],
    ["find_pair(dynamic(['server:web01', 'env:production', 'env:test']), 'env', 'prod*')", { key: 'env', value: 'production', separator: ':' }],
    ["find_pair(dynamic(['a=1', 'b=2']), '*', '2', '=')", { key: 'b', value: '2', separator: '=' }],
    ["find_pair(dynamic(['a:1']), 'z*', '*')", null],
  ]);
});
