// JSON Merge Patch (RFC 7396) on hand-written documents: what each rule of the RFC does.
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../../src/dashboards/merge-patch';

describe('JSON merge patch', () => {
  const chart = { id: 'c1', type: 'TimeSeries', name: 'Latency', query: { apl: "['web'] | count", queryOptions: { noFill: true } }, tags: ['a', 'b'] };

  it('replaces the members the patch names and keeps the others', () => {
    expect(mergePatch(chart, { name: 'p99 latency' })).toEqual({ ...chart, name: 'p99 latency' });
  });

  it('merges nested objects member by member', () => {
    expect(mergePatch(chart, { query: { apl: "['web'] | summarize count()" } })).toEqual({
      ...chart,
      query: { apl: "['web'] | summarize count()", queryOptions: { noFill: true } },
    });
  });

  it('removes members set to null, at any depth, and ignores nulls for absent members', () => {
    expect(mergePatch(chart, { name: null, query: { queryOptions: null }, missing: null })).toEqual({
      id: 'c1',
      type: 'TimeSeries',
      query: { apl: "['web'] | count" },
      tags: ['a', 'b'],
    });
  });

  it('replaces arrays whole, and a non-object target with the patch object', () => {
    expect(mergePatch(chart, { tags: ['c'] })).toEqual({ ...chart, tags: ['c'] });
    expect(mergePatch({ query: 'text' }, { query: { apl: 'x', drop: null } })).toEqual({ query: { apl: 'x' } });
  });

  it('lets a non-object patch replace the whole target', () => {
    expect(mergePatch(chart, ['x'])).toEqual(['x']);
    expect(mergePatch(chart, 'text')).toBe('text');
  });

  it('leaves the target unchanged and keeps a member named __proto__ as data', () => {
    const before = JSON.stringify(chart);
    const patched = mergePatch(chart, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(JSON.stringify(chart)).toBe(before);
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect((patched as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(patched, '__proto__')).toBe(true);
  });
});
