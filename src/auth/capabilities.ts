// The algebra of capability sets, shared by roles, groups and tokens. A set holds dataset
// capabilities (per dataset name, or "*" for every dataset), organization capabilities and view
// capabilities (per view name or "*"), in the shapes of Axiom's v2 API. A user holds the union
// of their base role and their groups' roles; an API token holds its own set intersected with
// what its creator holds at the moment of the request.
import type {
  Action,
  DatasetCapabilities,
  DatasetCapability,
  OrgCapabilities,
  OrgCapability,
  ViewCapabilities,
  ViewCapability,
} from './principal';

export interface CapabilitySet {
  datasetCapabilities: DatasetCapabilities;
  orgCapabilities: OrgCapabilities;
  viewCapabilities: ViewCapabilities;
}

type Scoped = Record<string, Partial<Record<string, Action[]>>>;
type Flat = Partial<Record<string, Action[]>>;

const ACTION_ORDER: Action[] = ['create', 'read', 'update', 'delete'];

function sortedActions(actions: Iterable<Action>): Action[] {
  const set = new Set(actions);
  return ACTION_ORDER.filter((action) => set.has(action));
}

export const EMPTY_CAPABILITIES: CapabilitySet = Object.freeze({
  datasetCapabilities: {},
  orgCapabilities: {},
  viewCapabilities: {},
}) as CapabilitySet;

/** Drops empty action lists and empty scopes, and orders actions, so equal sets look equal. */
function tidyFlat(flat: Flat): Flat {
  const out: Flat = {};
  for (const name of Object.keys(flat).sort()) {
    const actions = sortedActions(flat[name] ?? []);
    if (actions.length > 0) out[name] = actions;
  }
  return out;
}

function tidyScoped(scoped: Scoped): Scoped {
  const out: Scoped = {};
  for (const scope of Object.keys(scoped).sort()) {
    const flat = tidyFlat(scoped[scope] ?? {});
    if (Object.keys(flat).length > 0) out[scope] = flat;
  }
  return out;
}

function unionFlat(lists: Flat[]): Flat {
  const out: Record<string, Set<Action>> = {};
  for (const flat of lists) {
    for (const [name, actions] of Object.entries(flat)) {
      const into = (out[name] ??= new Set());
      for (const action of actions ?? []) into.add(action);
    }
  }
  return tidyFlat(Object.fromEntries(Object.entries(out).map(([name, set]) => [name, [...set]])));
}

function unionScoped(lists: Scoped[]): Scoped {
  const scopes = new Set(lists.flatMap((scoped) => Object.keys(scoped)));
  const out: Scoped = {};
  for (const scope of scopes) out[scope] = unionFlat(lists.map((scoped) => scoped[scope] ?? {}));
  return tidyScoped(out);
}

function intersectFlat(a: Flat, b: Flat): Flat {
  const out: Flat = {};
  for (const [name, actions] of Object.entries(a)) {
    const other = new Set(b[name] ?? []);
    out[name] = (actions ?? []).filter((action) => other.has(action));
  }
  return tidyFlat(out);
}

/**
 * The exact intersection of two scoped sets, where "*" stands for every scope: a named scope
 * holds an action in the result when both sides hold it there (by name or through "*").
 */
function intersectScoped(a: Scoped, b: Scoped): Scoped {
  const scopes = new Set([...Object.keys(a), ...Object.keys(b)]);
  const out: Scoped = {};
  for (const scope of scopes) {
    const left = scope === '*' ? (a['*'] ?? {}) : unionFlat([a[scope] ?? {}, a['*'] ?? {}]);
    const right = scope === '*' ? (b['*'] ?? {}) : unionFlat([b[scope] ?? {}, b['*'] ?? {}]);
    out[scope] = intersectFlat(left, right);
  }
  // A named scope adds nothing beyond what "*" already gives in the result.
  const everywhere = out['*'] ?? {};
  for (const scope of Object.keys(out)) {
    if (scope === '*') continue;
    const flat = out[scope]!;
    for (const name of Object.keys(flat)) {
      const covered = new Set(everywhere[name] ?? []);
      flat[name] = (flat[name] ?? []).filter((action) => !covered.has(action));
    }
  }
  return tidyScoped(out);
}

/** What any of the sets allows (a user's base role and the roles of their groups). */
export function unionOf(sets: readonly CapabilitySet[]): CapabilitySet {
  return {
    datasetCapabilities: unionScoped(sets.map((set) => set.datasetCapabilities as Scoped)) as DatasetCapabilities,
    orgCapabilities: unionFlat(sets.map((set) => set.orgCapabilities as Flat)) as OrgCapabilities,
    viewCapabilities: unionScoped(sets.map((set) => set.viewCapabilities as Scoped)) as ViewCapabilities,
  };
}

/** What both sets allow (an API token bounded by its creator). */
export function intersectionOf(a: CapabilitySet, b: CapabilitySet): CapabilitySet {
  return {
    datasetCapabilities: intersectScoped(a.datasetCapabilities as Scoped, b.datasetCapabilities as Scoped) as DatasetCapabilities,
    orgCapabilities: intersectFlat(a.orgCapabilities as Flat, b.orgCapabilities as Flat) as OrgCapabilities,
    viewCapabilities: intersectScoped(a.viewCapabilities as Scoped, b.viewCapabilities as Scoped) as ViewCapabilities,
  };
}

function holdsScoped(set: Scoped, scope: string, name: string, action: Action): boolean {
  return (set[scope]?.[name]?.includes(action) ?? false) || (set['*']?.[name]?.includes(action) ?? false);
}

/**
 * The first capability of `wanted` that `holder` lacks, described for an error message, or
 * undefined when `holder` holds all of it. "*" in `wanted` must be held as "*".
 */
export function firstMissing(holder: CapabilitySet, wanted: CapabilitySet): string | undefined {
  const scopedKinds = [
    ['dataset', holder.datasetCapabilities, wanted.datasetCapabilities],
    ['view', holder.viewCapabilities, wanted.viewCapabilities],
  ] as const;
  for (const [kind, held, asked] of scopedKinds) {
    for (const [scope, capabilities] of Object.entries(asked as Scoped)) {
      for (const [name, actions] of Object.entries(capabilities)) {
        for (const action of actions ?? []) {
          const ok = scope === '*' ? ((held as Scoped)['*']?.[name]?.includes(action) ?? false) : holdsScoped(held as Scoped, scope, name, action);
          if (!ok) return `${name}:${action} on ${scope === '*' ? `every ${kind}` : `${kind} "${scope}"`}`;
        }
      }
    }
  }
  for (const [name, actions] of Object.entries(wanted.orgCapabilities as Flat)) {
    for (const action of actions ?? []) {
      if (!((holder.orgCapabilities as Flat)[name]?.includes(action) ?? false)) return `${name}:${action}`;
    }
  }
  return undefined;
}

/** Reads a stored JSON column, treating anything unreadable as no capabilities. */
export function parseStored<T extends object>(text: string | null | undefined): T {
  if (!text) return {} as T;
  try {
    const value = JSON.parse(text) as unknown;
    return (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as T;
  } catch {
    return {} as T;
  }
}

export function capabilitySetOf(stored: { datasetCapabilities: string; orgCapabilities: string; viewCapabilities: string }): CapabilitySet {
  return {
    datasetCapabilities: parseStored<DatasetCapabilities>(stored.datasetCapabilities),
    orgCapabilities: parseStored<OrgCapabilities>(stored.orgCapabilities),
    viewCapabilities: parseStored<ViewCapabilities>(stored.viewCapabilities),
  };
}

export type { DatasetCapability, OrgCapability, ViewCapability };
