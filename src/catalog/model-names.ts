// How a model name, as clients and instrumentations write it, finds its catalog model. The rules
// (documented in docs/guides/llm-costs.md):
//
// 1. Names compare without surrounding spaces and without case. A Bedrock ARN
//    (`arn:aws:bedrock:<region>:<account>:foundation-model/<id>`, also `inference-profile/` and
//    `application-inference-profile/`) reads as `bedrock/<id>`; a leading `models/` (Gemini's
//    API) is dropped.
// 2. A catalog model id matches its model (`gpt-4o`, `azure/gpt-4o`,
//    `anthropic.claude-3-5-sonnet-20240620-v1:0`).
// 3. A name qualified by one of the model's provider spellings matches it: `openai/gpt-4o`,
//    `bedrock/anthropic.claude-…`, `aws.bedrock/…`, `az.ai.openai/gpt-4o` (for `azure/gpt-4o`),
//    `gemini/gemini-2.5-pro` and `gemini-2.5-pro` for Google's `2.5-pro`.
// 4. A bare name (no slash) that is a provider-prefixed id without its prefix matches when exactly
//    one model has it that way (`gpt-35-turbo` for `azure/gpt-35-turbo`).
// 5. Several models claiming one name: a name that starts with a provider spelling (`openai/…`)
//    goes to that provider's models first (the catalog also lists Replicate's `openai/gpt-4o`,
//    but `openai/gpt-4o` is OpenAI's `gpt-4o`); then the model whose id it is wins, then models
//    of the current catalog over models the catalog no longer lists, then list order.
// 6. A name ending in a date stamp (`-2024-08-06`, `-20240806`, `@20240806`, optionally followed
//    by a Bedrock version such as `-v1:0`) matches a dated name of the same date whichever of the
//    two date spellings either uses. One that matches nothing falls back to the same name without
//    the stamp, if that matches a model and the catalog's other dated names of that model (same
//    separator and version) all belong to the same provider; otherwise it is unknown. So
//    `gpt-4o-2099-01-01` prices as `gpt-4o`, `azure/gpt-4o-2099-01-01` as `azure/gpt-4o`, but
//    `claude-sonnet-4-5-20991231` stays unknown, because the catalog's `claude-sonnet-4-5` is a
//    Vertex model while its dated `claude-sonnet-4-5-…` names are Anthropic's.

/** Spellings of a provider in qualified names: catalog ids, LiteLLM prefixes, OpenTelemetry names. */
const PROVIDER_SPELLINGS: Record<string, readonly string[]> = {
  azure: ['azure', 'azure_ai', 'azure.ai.openai', 'azure.ai.inference', 'az.ai.openai', 'az.ai.inference'],
  bedrock: ['bedrock', 'bedrock_converse', 'aws.bedrock'],
  vertex: ['vertex', 'vertex_ai', 'gcp.vertex_ai'],
  google: ['google', 'gemini', 'gcp.gemini', 'gcp.gen_ai'],
  mistral: ['mistral', 'mistral_ai', 'mistralai'],
  xai: ['xai', 'x_ai'],
  watsonx: ['watsonx', 'ibm.watsonx.ai'],
  together: ['together', 'together_ai'],
  fireworks: ['fireworks', 'fireworks_ai'],
  perplexity: ['perplexity'],
  cohere: ['cohere', 'cohere_chat'],
};

export function providerSpellings(providerId: string): readonly string[] {
  const id = providerId.toLowerCase();
  return PROVIDER_SPELLINGS[id] ?? [id];
}

/** The provider a name's leading segment spells, if it spells one of `providers`. */
function qualifyingProvider(name: string, providers: ReadonlyMap<string, string>): string | undefined {
  const slash = name.indexOf('/');
  return slash > 0 ? providers.get(name.slice(0, slash)) : undefined;
}

/**
 * A date stamp at the end of a name (`-2024-08-06`, `-20240806`, `@20240806`), with an optional
 * Bedrock version after it (`-v1:0`). Groups: separator, year, month, day, version.
 */
export const DATE_STAMP_SOURCE = String.raw`([-@])(\d{4})-?(\d{2})-?(\d{2})((?:-v\d+(?::\d+)?)?)$`;
const DATE_STAMP = new RegExp(DATE_STAMP_SOURCE);

/** Bedrock ARNs of models and inference profiles; the id follows the slash. */
export const BEDROCK_ARN_SOURCE = String.raw`^arn:aws:bedrock:[^:]*:[^:]*:(?:foundation-model|inference-profile|application-inference-profile)/`;
const BEDROCK_ARN = new RegExp(BEDROCK_ARN_SOURCE);

/** Rule 1: the form every comparison uses. */
export function normalizeModelName(name: string): string {
  return name.trim().toLowerCase().replace(BEDROCK_ARN, 'bedrock/').replace(/^models\//, '');
}

/**
 * A normalized name split into the part before its date stamp, the date as a number (YYYYMMDD;
 * 0 when undated) and the lookup key: the name itself when undated, else the part before the
 * stamp, the stamp's separator and its version (`gpt-4o-`, `anthropic.claude-3-5-sonnet--v1:0`).
 */
export function splitDateStamp(normalized: string): { base: string; date: number; key: string } {
  const match = DATE_STAMP.exec(normalized);
  if (!match) return { base: normalized, date: 0, key: normalized };
  const [, separator, year, month, day, version] = match;
  const base = normalized.slice(0, match.index);
  return { base, date: Number(`${year}${month}${day}`), key: `${base}${separator}${version}` };
}

export interface NamedModel {
  modelId: string;
  providerId: string;
  /** In the current catalog (true) or only in the price history (false). */
  current: boolean;
}

/** Which rule gave a name; lower wins (rule 5). */
enum Claim {
  CurrentId = 0,
  CurrentQualified = 1,
  CurrentUnprefixed = 2,
  RemovedId = 3,
  RemovedQualified = 4,
  RemovedUnprefixed = 5,
}

function qualifiedNames(model: NamedModel): string[] {
  const id = model.modelId.toLowerCase();
  const spellings = providerSpellings(model.providerId);
  const names: string[] = [];
  // An id that already carries a provider prefix (`azure/gpt-4o`) takes the other spellings too.
  const prefix = spellings.find((spelling) => id.startsWith(`${spelling}/`));
  const rest = prefix ? id.slice(prefix.length + 1) : id;
  for (const spelling of spellings) names.push(`${spelling}/${rest}`);
  // Google's catalog ids drop LiteLLM's `gemini/gemini-` (2.5-pro); clients write gemini-2.5-pro.
  if (model.providerId === 'google' && !id.startsWith('gemini')) {
    names.push(`gemini-${id}`);
    for (const spelling of spellings) names.push(`${spelling}/gemini-${id}`);
  }
  return names.filter((name) => name !== id);
}

/**
 * The part of a provider-prefixed id after its prefix, for rule 4; none when that part is itself
 * qualified (`openrouter/anthropic/…` must not answer for `anthropic/…`).
 */
function unprefixedName(model: NamedModel): string | undefined {
  const id = model.modelId.toLowerCase();
  const prefix = providerSpellings(model.providerId).find((spelling) => id.startsWith(`${spelling}/`));
  const rest = prefix ? id.slice(prefix.length + 1) : undefined;
  return rest && !rest.includes('/') ? rest : undefined;
}

/**
 * Every name (normalized) that resolves to a model by rules 2 to 5, mapped to the winning
 * model. `models` comes in catalog order, current models first.
 */
export function buildNameIndex(models: readonly NamedModel[]): Map<string, NamedModel> {
  const spelled = new Map<string, string>();
  for (const model of models) {
    for (const spelling of providerSpellings(model.providerId)) if (!spelled.has(spelling)) spelled.set(spelling, model.providerId);
  }
  const claims = new Map<string, { claim: number; model: NamedModel }>();
  const claim = (name: string, rank: Claim, model: NamedModel) => {
    const qualifier = qualifyingProvider(name, spelled);
    // A name qualified for another provider ranks after every claim of that provider.
    const score = (qualifier !== undefined && qualifier !== model.providerId ? 10 : 0) + rank;
    const existing = claims.get(name);
    if (!existing || score < existing.claim) claims.set(name, { claim: score, model });
  };
  const offset = (model: NamedModel) => (model.current ? 0 : 3);
  for (const model of models) {
    claim(model.modelId.toLowerCase(), Claim.CurrentId + offset(model), model);
    for (const name of qualifiedNames(model)) claim(name, Claim.CurrentQualified + offset(model), model);
  }
  // Rule 4 only where the bare name is unambiguous.
  const unprefixed = new Map<string, NamedModel[]>();
  for (const model of models) {
    const name = unprefixedName(model);
    if (name === undefined) continue;
    const list = unprefixed.get(name) ?? [];
    list.push(model);
    unprefixed.set(name, list);
  }
  for (const [name, owners] of unprefixed) {
    const distinct = new Set(owners.map((owner) => owner.modelId));
    if (distinct.size === 1) claim(name, Claim.CurrentUnprefixed + offset(owners[0]!), owners[0]!);
  }
  return new Map([...claims].map(([name, { model }]) => [name, model]));
}

/**
 * One entry of the lookup a query engine joins: names whose lookup key is `key` and whose date
 * lies in [dateFrom, dateTo) resolve to `model` (see splitDateStamp).
 */
export interface NameRange {
  key: string;
  dateFrom: number;
  dateTo: number;
  model: NamedModel;
}

/** Above every date YYYYMMDD. */
const DATE_END = 100_000_000;

/**
 * The name index as key/date ranges: one exact range per name (rules 2 to 5), and for every
 * undated name the fallback ranges of rule 6, covering the dates no dated name claims.
 */
export function nameRanges(index: ReadonlyMap<string, NamedModel>): NameRange[] {
  const ranges: NameRange[] = [];
  const datedByKey = new Map<string, { date: number; model: NamedModel }[]>();
  const datedKeysOfBase = new Map<string, Set<string>>();
  for (const [name, model] of index) {
    const { base, date, key } = splitDateStamp(name);
    ranges.push({ key, dateFrom: date, dateTo: date + 1, model });
    if (date === 0) continue;
    const list = datedByKey.get(key) ?? [];
    list.push({ date, model });
    datedByKey.set(key, list);
    const keys = datedKeysOfBase.get(base) ?? new Set();
    keys.add(key);
    datedKeysOfBase.set(base, keys);
  }
  for (const [name, model] of index) {
    if (splitDateStamp(name).date !== 0) continue;
    const keys = new Set([`${name}-`, `${name}@`, ...(datedKeysOfBase.get(name) ?? [])]);
    for (const key of keys) {
      const dated = (datedByKey.get(key) ?? []).sort((a, b) => a.date - b.date);
      // Rule 6 never crosses providers.
      if (dated.some((entry) => entry.model.providerId !== model.providerId)) continue;
      let from = 1;
      for (const entry of dated) {
        if (from < entry.date) ranges.push({ key, dateFrom: from, dateTo: entry.date, model });
        from = entry.date + 1;
      }
      ranges.push({ key, dateFrom: from, dateTo: DATE_END, model });
    }
  }
  return ranges;
}
