// What a reader can ask of the catalog: filters over models, projection of fields, and the
// filling of missing numbers with zeros. Shared by REST and GraphQL through CatalogService.
import { invalidInput } from '../errors';
import { DOCUMENTED_CAPABILITIES, type ModelRecord } from './record';
import type { CatalogSnapshot } from './snapshot';

export interface ModelFilter {
  /** Model ids starting with any of these. */
  prefixes?: readonly string[];
  /** Provider ids, any of these. */
  providers?: readonly string[];
  /** Model types, any of these. */
  types?: readonly string[];
  /** Capabilities, all of these (function_calling, vision, json_mode, parallel_functions, ...). */
  capabilities?: readonly string[];
  /** true: deprecated on or before today (UTC); false: every other model. */
  deprecated?: boolean;
}

/** Today's date in UTC as YYYY-MM-DD, the form of LiteLLM's deprecation dates. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A model is deprecated once its deprecation date is today or past; a future date is a plan. */
export function isDeprecated(record: ModelRecord, today: string): boolean {
  const date = record.deprecation_date;
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(date) && date.slice(0, 10) <= today;
}

/**
 * The record field a capability name reads: the documented names (json_mode →
 * supports_json_mode), or any `supports_*` field of the catalog by its full or short name
 * (supports_reasoning or reasoning).
 */
export function capabilityField(name: string, snapshot: CatalogSnapshot): string | undefined {
  const documented = DOCUMENTED_CAPABILITIES[name as keyof typeof DOCUMENTED_CAPABILITIES];
  if (documented) return documented;
  const full = name.startsWith('supports_') ? name : `supports_${name}`;
  return snapshot.capabilityFields.includes(full) ? full : undefined;
}

function capabilityFields(names: readonly string[], snapshot: CatalogSnapshot): string[] {
  return names.map((name) => {
    const field = capabilityField(name, snapshot);
    if (!field) {
      throw invalidInput(
        `unknown capability "${name}": use ${Object.keys(DOCUMENTED_CAPABILITIES).join(', ')}, or a supports_* field of the catalog`,
      );
    }
    return field;
  });
}

/** List items are trimmed and empty ones dropped, whichever door the filter came through. */
function cleanList(items: readonly string[] | undefined): string[] | undefined {
  const cleaned = items?.map((item) => item.trim()).filter(Boolean);
  return cleaned?.length ? cleaned : undefined;
}

export function filterModels(snapshot: CatalogSnapshot, filter: ModelFilter, today: string): ModelRecord[] {
  const { deprecated } = filter;
  const prefixes = cleanList(filter.prefixes);
  const providers = cleanList(filter.providers);
  const types = cleanList(filter.types);
  const wantedCapabilities = cleanList(filter.capabilities);
  const capabilities = wantedCapabilities ? capabilityFields(wantedCapabilities, snapshot) : [];
  const providerSet = providers ? new Set(providers) : undefined;
  const typeSet = types ? new Set(types) : undefined;
  const source = providerSet?.size === 1 ? (snapshot.provider([...providerSet][0]!)?.models ?? []) : snapshot.models;
  return source.filter(
    (model) =>
      (!prefixes || prefixes.some((prefix) => model.model_id.startsWith(prefix))) &&
      (!providerSet || providerSet.has(model.provider_id)) &&
      (!typeSet || typeSet.has(model.model_type)) &&
      capabilities.every((field) => model[field] === true) &&
      (deprecated === undefined || isDeprecated(model, today) === deprecated),
  );
}

/** The listed fields that the record has, in the order asked. */
export function projectRecord(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const projected: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(record, field)) projected[field] = record[field];
  }
  return projected;
}

/** Token counts and costs: the fields where a missing number may be read as zero. */
const NUMERIC_FIELD = /tokens|cost|million/i;

/** Replaces null with 0 in token and cost fields (nested ones too); other nulls stay null. */
export function fillWithZeros<T extends Record<string, unknown>>(record: T): T {
  let filled: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    let replacement: unknown = value;
    if (value === null) {
      if (NUMERIC_FIELD.test(key)) replacement = 0;
    } else if (typeof value === 'object' && !Array.isArray(value)) {
      replacement = fillWithZeros(value as Record<string, unknown>);
    }
    if (replacement !== value) {
      filled ??= { ...record };
      filled[key] = replacement;
    }
  }
  return (filled ?? record) as T;
}
