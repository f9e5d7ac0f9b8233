// Addresses of the models area (under the console's /app base) and the link from a model to
// the LLM costs page filtered to it.

const orgPath = (org: string) => `/${encodeURIComponent(org)}`;

/** The catalog browser. */
export function modelsHref(org: string): string {
  return `${orgPath(org)}/models`;
}

/** A model's page; ids keep their slashes (openrouter/openai/gpt-4o). */
export function modelHref(org: string, id: string): string {
  return `${orgPath(org)}/models/${id.split('/').map(encodeURIComponent).join('/')}`;
}

/** Models side by side. */
export function compareHref(org: string, ids: string[]): string {
  return `${orgPath(org)}/models/compare?${new URLSearchParams({ ids: ids.join(',') })}`;
}

/** The LLM costs page of the organization, filtered to one catalog model. */
export function usageHref(org: string, id: string): string {
  return `${orgPath(org)}/llm-costs?${new URLSearchParams({ model: id })}`;
}
