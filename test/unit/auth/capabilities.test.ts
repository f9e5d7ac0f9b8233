// The capability algebra against a direct evaluation: a set allows (dataset, capability, action)
// when it lists the action under the dataset's name or under "*". Union and intersection must
// allow exactly what "either" and "both" allow, for named datasets and for datasets no set names.
import { describe, expect, it } from 'vitest';
import { type CapabilitySet, firstMissing, intersectionOf, unionOf } from '../../../src/auth/capabilities';

const NONE: CapabilitySet = { datasetCapabilities: {}, orgCapabilities: {}, viewCapabilities: {} };

function allows(set: CapabilitySet, dataset: string, capability: string, action: string): boolean {
  const scoped = set.datasetCapabilities as Record<string, Record<string, string[] | undefined>>;
  return Boolean(scoped[dataset]?.[capability]?.includes(action) || scoped['*']?.[capability]?.includes(action));
}

// A few sets mixing "*" and named datasets.
const SETS: CapabilitySet[] = [
  { ...NONE, datasetCapabilities: { '*': { query: ['read'], ingest: ['create'] } } },
  { ...NONE, datasetCapabilities: { logs: { query: ['read'] }, metrics: { ingest: ['create'], query: ['read'] } } },
  { ...NONE, datasetCapabilities: { '*': { ingest: ['create'] }, logs: { trim: ['update'], query: ['read'] } } },
  { ...NONE, datasetCapabilities: { traces: { starredQueries: ['create', 'read'] } } },
  NONE,
];
const DATASETS = ['logs', 'metrics', 'traces', 'unnamed'];
const CHECKS = [
  ['query', 'read'],
  ['ingest', 'create'],
  ['trim', 'update'],
  ['starredQueries', 'read'],
  ['starredQueries', 'create'],
] as const;

describe('capability sets', () => {
  it('intersects exactly: allowed by both, per dataset, "*" included', () => {
    for (const a of SETS) {
      for (const b of SETS) {
        const both = intersectionOf(a, b);
        for (const dataset of DATASETS) {
          for (const [capability, action] of CHECKS) {
            expect(allows(both, dataset, capability, action), `${JSON.stringify(a)} ∩ ${JSON.stringify(b)} on ${dataset} ${capability}:${action}`).toBe(
              allows(a, dataset, capability, action) && allows(b, dataset, capability, action),
            );
          }
        }
      }
    }
  });

  it('unites exactly: allowed by either', () => {
    for (const a of SETS) {
      for (const b of SETS) {
        const either = unionOf([a, b]);
        for (const dataset of DATASETS) {
          for (const [capability, action] of CHECKS) {
            expect(allows(either, dataset, capability, action)).toBe(allows(a, dataset, capability, action) || allows(b, dataset, capability, action));
          }
        }
      }
    }
  });

  it('intersects and unites organization and view capabilities by action', () => {
    const a: CapabilitySet = { datasetCapabilities: {}, orgCapabilities: { users: ['read', 'update'], rbac: ['read'] }, viewCapabilities: { '*': { query: ['read'] } } };
    const b: CapabilitySet = { datasetCapabilities: {}, orgCapabilities: { users: ['read'], monitors: ['create'] }, viewCapabilities: { errors: { query: ['read'] } } };
    expect(intersectionOf(a, b)).toEqual({ datasetCapabilities: {}, orgCapabilities: { users: ['read'] }, viewCapabilities: { errors: { query: ['read'] } } });
    expect(unionOf([a, b]).orgCapabilities).toEqual({ monitors: ['create'], rbac: ['read'], users: ['read', 'update'] });
  });

  it('names the first capability a holder lacks; "*" must be held as "*"', () => {
    const holder: CapabilitySet = { ...NONE, datasetCapabilities: { logs: { query: ['read'] } }, orgCapabilities: { users: ['read'] } };
    expect(firstMissing(holder, { ...NONE, datasetCapabilities: { logs: { query: ['read'] } } })).toBeUndefined();
    expect(firstMissing(holder, { ...NONE, datasetCapabilities: { '*': { query: ['read'] } } })).toBe('query:read on every dataset');
    expect(firstMissing(holder, { ...NONE, datasetCapabilities: { web: { query: ['read'] } } })).toBe('query:read on dataset "web"');
    expect(firstMissing(holder, { ...NONE, orgCapabilities: { users: ['read', 'delete'] } })).toBe('users:delete');
    const everything: CapabilitySet = { ...NONE, datasetCapabilities: { '*': { query: ['read'] } } };
    expect(firstMissing(everything, { ...NONE, datasetCapabilities: { web: { query: ['read'] } } })).toBeUndefined();
  });
});
