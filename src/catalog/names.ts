// Human-readable names for model and provider ids: a short table of brand spellings that no
// rule can guess (GPT-4o, o3 mini, Claude 3.7 Sonnet), then rules for everything else
// (words split on hyphens and capitalised, well-known acronyms, a trailing date as "(Mon YYYY)").

const MODEL_NAMES: Record<string, string> = {
  'gpt-4o': 'GPT-4o',
  'gpt-4o-mini': 'GPT-4o mini',
  'gpt-4.1-mini': 'GPT-4.1 mini',
  'gpt-4.1-nano': 'GPT-4.1 nano',
  'gpt-3.5-turbo': 'GPT 3.5T',
  'gpt-3.5-turbo-16k': 'GPT 3.5T 16k',
  'gpt-3.5-turbo-instruct': 'GPT 3.5T Instruct',
  'chatgpt-4o-latest': 'ChatGPT-4o',
  o1: 'o1',
  'o1-mini': 'o1 mini',
  'o1-preview': 'o1 Preview',
  'o1-pro': 'o1 Pro',
  o3: 'o3',
  'o3-mini': 'o3 mini',
  'o3-pro': 'o3 Pro',
  'o4-mini': 'o4 mini',
  'claude-3-haiku-20240307': 'Claude 3 Haiku',
  'claude-3-sonnet-20240229': 'Claude 3 Sonnet',
  'claude-3-opus-latest': 'Claude 3 Opus',
  'claude-3-5-haiku-latest': 'Claude 3.5 Haiku',
  'claude-3-5-sonnet-latest': 'Claude 3.5 Sonnet',
  'claude-3-7-sonnet-latest': 'Claude 3.7 Sonnet',
  'claude-sonnet-4-20250514': 'Claude 4 Sonnet',
  'claude-opus-4-20250514': 'Claude 4 Opus',
  'claude-instant-1': 'Claude Instant 1',
  'claude-instant-1.2': 'Claude Instant 1.2',
  'gemini-2.0-flash': 'Gemini 2.0 Flash',
  'gemini-2.0-flash-lite': 'Gemini 2.0 Flash-Lite',
  'gemini-1.5-flash-8b': 'Gemini 1.5 Flash-8B',
  'llama3-8b': 'Llama 3 8B',
  'llama3-70b': 'Llama 3 70B',
  'llama3.1-8b': 'Llama 3.1 8B',
  'llama3.1-70b': 'Llama 3.1 70B',
  'llama3.2-1b': 'Llama 3.2 1B',
  'llama3.2-3b': 'Llama 3.2 3B',
  'llama3.3-70b': 'Llama 3.3 70B',
  'mistral-large-latest': 'Mistral Large',
  'mistral-medium-latest': 'Mistral Medium 3',
  'mistral-small-latest': 'Mistral Small',
  'pixtral-large-latest': 'Pixtral Large',
  'codestral-latest': 'Codestral',
  'ministral-3b-latest': 'Ministral 3B',
  'ministral-8b-latest': 'Ministral 8B',
  'open-mistral-nemo': 'Mistral NeMo',
  'open-mixtral-8x22b': 'Mixtral 8x22B',
  'open-codestral-mamba': 'Codestral Mamba',
  'deepseek-r1': 'DeepSeek R1',
  'deepseek-v3': 'DeepSeek V3',
  'qwq-32b': 'Qwen QwQ 32B',
  'qwq-32b-preview': 'Qwen QwQ 32B Preview',
  'dbrx-instruct': 'DBRX Instruct',
  'nova-lite-v1:0': 'Nova Lite',
  'nova-micro-v1:0': 'Nova Micro',
  'nova-pro-v1:0': 'Nova Pro',
  'command-r-v1:0': 'Command R',
  'command-r-plus-v1:0': 'Command R+',
};

const PROVIDER_NAMES: Record<string, string> = {
  ai21: 'AI21 Labs',
  anthropic: 'Anthropic',
  anyscale: 'Anyscale',
  assemblyai: 'AssemblyAI',
  aws: 'AWS',
  azure: 'Microsoft Azure',
  bedrock: 'AWS Bedrock',
  cloudflare: 'Cloudflare',
  cohere: 'Cohere',
  databricks: 'Databricks',
  deepgram: 'Deepgram',
  deepinfra: 'DeepInfra',
  deepseek: 'DeepSeek',
  devstral: 'Devstral',
  elevenlabs: 'ElevenLabs',
  fireworks: 'Fireworks AI',
  google: 'Google',
  groq: 'Groq',
  huggingface: 'Hugging Face',
  magistral: 'Magistral AI',
  meta: 'Meta',
  minimax: 'MiniMax',
  mistral: 'Mistral AI',
  moonshot: 'Moonshot AI',
  nous: 'Nous Research',
  nousresearch: 'Nous Research',
  nvidia: 'NVIDIA',
  openai: 'OpenAI',
  openrouter: 'OpenRouter',
  palm: 'Palm AI',
  perplexity: 'Perplexity AI',
  qwen: 'Alibaba Cloud',
  replicate: 'Replicate',
  sagemaker: 'AWS Sage Maker',
  snowflake: 'Snowflake',
  sonar: 'Sonar',
  together: 'Together AI',
  vertex: 'Google Vertex AI',
  voyage: 'Voyage AI',
  watsonx: 'IBM Watsonx',
  xai: 'xAI',
  zhipu: 'Zhipu AI',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Splits a trailing date (2024-07-18, 20240718, or -2501 for YYMM) off an id. */
function splitTrailingDate(id: string): { base: string; date: string } {
  const full = /[-_]?(\d{4})[-_]?(\d{2})[-_]?(\d{2})$/.exec(id);
  if (full) {
    const month = MONTHS[Number(full[2]) - 1];
    if (month) return { base: id.slice(0, -full[0].length), date: `(${month} ${full[1]})` };
  }
  const short = /[-_](\d{2})(\d{2})$/.exec(id);
  if (short) {
    const month = MONTHS[Number(short[2]) - 1];
    if (month) return { base: id.slice(0, -short[0].length), date: `(${month} 20${short[1]})` };
  }
  return { base: id, date: '' };
}

function titleCaseModelWords(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
    .replace(/\bGpt\b/gi, 'GPT')
    .replace(/\bGPT (\d[\d.]*)/g, 'GPT-$1')
    .replace(/\bLlama\b/gi, 'Llama')
    .replace(/\bAi\b/g, 'AI')
    .replace(/\bApi\b/g, 'API')
    .replace(/\bHd\b/g, 'HD')
    .replace(/\bTts\b/g, 'TTS')
    .replace(/\bStt\b/g, 'STT')
    .replace(/(\d+)b\b/gi, '$1B');
}

function nameWithoutFineTuning(id: string): string {
  const curated = MODEL_NAMES[id];
  if (curated) return curated;
  // Slash-separated ids (azure/eu/gpt-4o) are named after their last segment.
  const last = id.includes('/') ? (id.split('/').at(-1) ?? id) : id;
  if (MODEL_NAMES[last]) return MODEL_NAMES[last];
  const { base, date } = splitTrailingDate(last);
  const name = MODEL_NAMES[base] ?? titleCaseModelWords(base);
  return date ? `${name} ${date}` : name;
}

export function modelDisplayName(modelId: string): string {
  if (MODEL_NAMES[modelId]) return MODEL_NAMES[modelId];
  if (modelId.startsWith('ft:')) return `${nameWithoutFineTuning(modelId.slice(3))} [Fine-tuned]`;
  return nameWithoutFineTuning(modelId);
}

export function providerDisplayName(providerId: string): string {
  const lower = providerId.toLowerCase();
  const known = PROVIDER_NAMES[lower];
  if (known) return known;
  // LiteLLM's text-completion-<provider> variants belong to <provider>.
  if (lower.startsWith('text-completion-')) {
    const inner = PROVIDER_NAMES[lower.split('-')[2] ?? ''];
    if (inner) return inner;
  }
  return providerId
    .split(/[-_]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ')
    .replace(/\bAi\b/g, 'AI')
    .replace(/\bLlm\b/g, 'LLM')
    .replace(/\bApi\b/g, 'API')
    .replace(/\bMl\b/g, 'ML');
}
