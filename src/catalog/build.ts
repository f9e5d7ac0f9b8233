// Turns a LiteLLM-format document into the sorted list of catalog records, counting what was
// read, what was skipped and why. Pure: reading the source and writing the store are elsewhere.
import { invalidInput } from '../errors';
import { mapLiteLLMEntry } from './litellm';
import type { ModelRecord } from './record';

/** The order of every list: provider id, then model id, as `localeCompare` orders them. */
const collator = new Intl.Collator('en-US');

export function compareRecords(a: ModelRecord, b: ModelRecord): number {
  return collator.compare(a.provider_id, b.provider_id) || collator.compare(a.model_id, b.model_id);
}

export function compareIds(a: string, b: string): number {
  return collator.compare(a, b);
}

export interface BuiltCatalog {
  records: ModelRecord[];
  modelsRead: number;
  /** How many entries were not written, by reason. */
  skipReasons: Record<string, number>;
}

export const REPLACED_BY_LATER_ENTRY = 'replaced by a later entry with the same model_id';

export function buildCatalog(document: unknown): BuiltCatalog {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw invalidInput('the catalog source is not a JSON object of model entries');
  }
  const byId = new Map<string, ModelRecord>();
  const skipReasons: Record<string, number> = {};
  const skip = (reason: string) => {
    skipReasons[reason] = (skipReasons[reason] ?? 0) + 1;
  };
  let modelsRead = 0;
  for (const [name, entry] of Object.entries(document)) {
    modelsRead++;
    const mapped = mapLiteLLMEntry(name, entry);
    if (!mapped.ok) {
      skip(mapped.reason);
      continue;
    }
    // The later entry wins when two names clean to the same model id.
    if (byId.has(mapped.record.model_id)) skip(REPLACED_BY_LATER_ENTRY);
    byId.set(mapped.record.model_id, mapped.record);
  }
  if (byId.size === 0) {
    throw invalidInput(`the catalog source has no usable model entries (${modelsRead} read)`);
  }
  const records = [...byId.values()].sort(compareRecords);
  return { records, modelsRead, skipReasons };
}
