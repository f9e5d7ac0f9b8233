// The catalog's metadata: where it came from, when, what the import counted, and statistics
// over the models (per provider, type and capability; active versus deprecated as of today).
import { isDeprecated } from './query';
import type { RefreshState } from './refresh';
import type { CatalogSnapshot } from './snapshot';

export const SCHEMA_VERSION = '1.0.0';

export interface CatalogMetadata {
  source: string;
  generated_at: string;
  model_count: number;
  schema_version: string;
  sync: {
    source_kind: string;
    models_read: number;
    models_skipped: number;
    models_written: number;
    skip_reasons: Record<string, number>;
  };
  /** Present when the catalog refreshes itself from a URL (MODEL_CATALOG_REFRESH). */
  refresh?: {
    source: string;
    interval_seconds: number;
    last_checked_at: string | null;
    last_refreshed_at: string | null;
    status: string;
    error: string | null;
  };
  stats: {
    providers: Record<string, number>;
    types: Record<string, number>;
    capabilities: Record<string, number>;
    deprecation: { active: number; deprecated: number };
  };
}

export function catalogMetadata(snapshot: CatalogSnapshot, today: string): CatalogMetadata {
  const providers: Record<string, number> = {};
  for (const provider of snapshot.providers) providers[provider.id] = provider.models.length;
  const types: Record<string, number> = {};
  const capabilities: Record<string, number> = {};
  for (const field of snapshot.capabilityFields) capabilities[field] = 0;
  let deprecated = 0;
  for (const model of snapshot.models) {
    types[model.model_type] = (types[model.model_type] ?? 0) + 1;
    for (const field of snapshot.capabilityFields) if (model[field] === true) capabilities[field]!++;
    if (isDeprecated(model, today)) deprecated++;
  }
  const { sync } = snapshot;
  return {
    source: sync.source,
    generated_at: sync.syncedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    model_count: snapshot.models.length,
    schema_version: SCHEMA_VERSION,
    sync: {
      source_kind: sync.sourceKind,
      models_read: sync.modelsRead,
      models_skipped: sync.modelsSkipped,
      models_written: sync.modelsWritten,
      skip_reasons: sync.skipReasons,
    },
    stats: {
      providers,
      types,
      capabilities,
      deprecation: { active: snapshot.models.length - deprecated, deprecated },
    },
  };
}

const isoSeconds = (date: Date | null) => (date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

export function refreshMetadata(state: RefreshState): NonNullable<CatalogMetadata['refresh']> {
  return {
    source: state.source,
    interval_seconds: state.intervalSeconds,
    last_checked_at: isoSeconds(state.checkedAt),
    last_refreshed_at: isoSeconds(state.refreshedAt),
    status: state.status,
    error: state.error,
  };
}
