// Values kept per catalog version: dropped when the version changes, bounded by size with the
// least recently used going first, whichever key was read last.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CatalogService } from '../../../src/catalog/service';
import { CatalogVersionCache } from '../../../src/catalog/version-cache';
import type { RelationalStore } from '../../../src/db/store';

describe('CatalogVersionCache', () => {
  const sized = () => new CatalogVersionCache<string>((value) => value.length, 10);

  it('drops every value when the version changes, numbers and generations alike', () => {
    const cache = sized();
    cache.set(1, 'a', 'aaa');
    expect(cache.get(1, 'a')).toBe('aaa');
    expect(cache.get(2, 'a')).toBeUndefined();
    cache.set('2 2026-11-28 0', 'b', 'bb');
    expect(cache.get(1, 'a')).toBeUndefined();
    expect(cache.get('2 2026-11-28 0', 'b')).toBe('bb');
  });

  it('evicts the least recently used first, counting repeated reads of one key', () => {
    const cache = sized();
    cache.set(1, 'a', 'aaaa');
    cache.set(1, 'b', 'bbbb');
    expect(cache.get(1, 'a')).toBe('aaaa');
    expect(cache.get(1, 'a')).toBe('aaaa');
    cache.set(1, 'c', 'cccc');
    expect(cache.get(1, 'b')).toBeUndefined();
    expect(cache.get(1, 'a')).toBe('aaaa');
    expect(cache.get(1, 'c')).toBe('cccc');
    cache.set(1, 'd', 'dddd');
    expect(cache.get(1, 'a')).toBeUndefined();
    expect(cache.get(1, 'c')).toBe('cccc');
  });
});

describe('CatalogService days', () => {
  const at = (clock: { now: Date }) =>
    new CatalogService({} as RelationalStore, pino({ level: 'silent' }), { pollIntervalMs: 0, now: () => clock.now });

  it('says what day it is in UTC, following the clock both ways across midnight', () => {
    const clock = { now: new Date('2026-11-27T23:59:59.999Z') };
    const catalog = at(clock);
    expect(catalog.today()).toBe('2026-11-27');
    clock.now = new Date('2026-11-28T00:00:00.000Z');
    expect(catalog.today()).toBe('2026-11-28');
    clock.now = new Date('2026-11-28T23:00:00-05:00');
    expect(catalog.today()).toBe('2026-11-29');
    clock.now = new Date('2026-11-27T12:00:00Z');
    expect(catalog.today()).toBe('2026-11-27');
  });
});
