// The memo behind per-request arithmetic: computes once per key, forgets the least recently
// used key past its capacity, and shares frozen values.
import { describe, expect, it } from 'vitest';
import { BoundedMemo, deepFreeze } from '../../../src/lib/bounded-memo';

describe('BoundedMemo', () => {
  it('computes a key once and answers it again from memory', () => {
    const memo = new BoundedMemo<number>(4);
    let calls = 0;
    const square = (n: number) => memo.get(String(n), () => (calls++, n * n));
    expect([square(3), square(3), square(4), square(3)]).toEqual([9, 9, 16, 9]);
    expect(calls).toBe(2);
  });

  it('forgets the least recently used key past its capacity', () => {
    const memo = new BoundedMemo<string>(2);
    const computed: string[] = [];
    const get = (key: string) => memo.get(key, () => (computed.push(key), key.toUpperCase()));
    get('a');
    get('b');
    get('a'); // a is now the most recently used
    get('c'); // evicts b
    get('a');
    get('b'); // computed again
    expect(computed).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not remember a computation that threw', () => {
    const memo = new BoundedMemo<number>(2);
    let attempts = 0;
    const failing = () =>
      memo.get('k', () => {
        attempts++;
        throw new Error('no');
      });
    expect(failing).toThrow('no');
    expect(failing).toThrow('no');
    expect(attempts).toBe(2);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays', () => {
    const value = deepFreeze({ a: { b: ['read'] }, c: [{ d: 1 }] });
    expect(() => {
      (value.a.b as string[]).push('update');
    }).toThrow(TypeError);
    expect(() => {
      (value.c[0] as { d: number }).d = 2;
    }).toThrow(TypeError);
    expect(value).toEqual({ a: { b: ['read'] }, c: [{ d: 1 }] });
  });
});
