// What a notifier is: a name and one channel in `properties`, in the shapes of Axiom's v2
// NotifierProperties. Which settings are secrets, and how they are masked when shown: a secret
// is only ever returned masked, and a masked value sent back on update keeps the stored secret.
import { z } from 'zod';
import { invalidInput } from '../errors';
import { parseInput } from '../lib/validation';
import { isPrivateHostLiteral } from './delivery/address-guard';
import { renderWebhookTemplate, SAMPLE_TEMPLATE_DATA, TemplateError } from './delivery/template';

const httpUrl = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

const secret = z.string({ error: 'is required' }).trim().min(1, 'is required').max(4096);
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, 'header names are tokens of letters, digits and !#$%&\'*+.^_`|~-');
const headers = z.record(headerName, z.string().max(8192).refine((v) => !/[\r\n]/.test(v), 'header values cannot hold line breaks'));

export const CHANNEL_SCHEMAS = {
  customWebhook: z.strictObject({
    url: httpUrl,
    body: z.string().max(65_536).default(''),
    headers: headers.default({}),
    secretHeaders: headers.default({}),
  }),
  webhook: z.strictObject({ url: httpUrl }),
  slack: z.strictObject({ slackUrl: httpUrl }),
  discordWebhook: z.strictObject({ discordWebhookUrl: httpUrl }),
  discord: z.strictObject({
    discordToken: secret,
    discordChannel: z.string({ error: 'is required' }).regex(/^\d{1,32}$/, 'must be a Discord channel id (digits)'),
  }),
  microsoftTeams: z.strictObject({ microsoftTeamsUrl: httpUrl }),
  pagerduty: z.strictObject({ routingKey: secret, token: z.string().max(4096).default('') }),
  opsgenie: z.strictObject({ apiKey: secret, isEU: z.boolean().default(false) }),
  email: z.strictObject({
    emails: z
      .array(z.email({ error: (issue) => `"${String(issue.input)}" is not an email address` }))
      .min(1, 'needs at least one address')
      .max(100),
  }),
} as const;

export type ChannelName = keyof typeof CHANNEL_SCHEMAS;
export const CHANNELS = Object.keys(CHANNEL_SCHEMAS) as ChannelName[];
export type ChannelConfig<C extends ChannelName = ChannelName> = z.output<(typeof CHANNEL_SCHEMAS)[C]>;

/** Settings that are secrets, by channel. `secretHeaders` values are secrets too. */
const SECRET_FIELDS: Record<ChannelName, string[]> = {
  customWebhook: [],
  webhook: [],
  slack: ['slackUrl'],
  discordWebhook: ['discordWebhookUrl'],
  discord: ['discordToken'],
  microsoftTeams: ['microsoftTeamsUrl'],
  pagerduty: ['routingKey', 'token'],
  opsgenie: ['apiKey'],
  email: [],
};

/** URLs the server will post to, by channel (checked against NOTIFIER_DENY_PRIVATE). */
const TARGET_FIELDS: Partial<Record<ChannelName, string>> = {
  customWebhook: 'url',
  webhook: 'url',
  slack: 'slackUrl',
  discordWebhook: 'discordWebhookUrl',
  microsoftTeams: 'microsoftTeamsUrl',
};

const MASK = '*****';

/** A secret as shown: a URL keeps its scheme and host, other secrets their last four characters. */
export function maskSecret(value: string): string {
  if (value === '') return '';
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.protocol}//${url.host}/${MASK}`;
  } catch {
    // not a URL
  }
  return value.length >= 12 ? `${MASK}${value.slice(-4)}` : MASK;
}

const dateTime = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((text) => new Date(text));

const notifierSchema = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(255),
  properties: z.record(z.string(), z.unknown(), { error: 'is required: an object with one channel, e.g. {"slack": {"slackUrl": "..."}}' }),
  disabledUntil: z.union([dateTime, z.literal('').transform(() => null), z.null()]).optional(),
});

export interface NotifierInput {
  name: string;
  channel: ChannelName;
  config: ChannelConfig;
  disabledUntil: Date | null | undefined;
}

/**
 * Reads a notifier body. `previous` (on update) lets masked secrets stand for the stored ones.
 * Checks custom webhook templates by rendering them with sample data.
 */
export async function parseNotifierInput(
  body: unknown,
  options: { denyPrivateTargets: boolean; previous?: { channel: string; config: ChannelConfig } },
): Promise<NotifierInput> {
  const input = parseInput(notifierSchema, body);
  const names = Object.keys(input.properties).filter((key) => input.properties[key] !== null && input.properties[key] !== undefined);
  if (names.length !== 1) {
    throw invalidInput(`invalid request body: properties: give exactly one channel, one of ${CHANNELS.join(', ')} (got ${names.length === 0 ? 'none' : names.join(', ')})`);
  }
  const channel = names[0] as ChannelName;
  if (!CHANNELS.includes(channel)) throw invalidInput(`invalid request body: properties.${channel}: unknown channel; use one of ${CHANNELS.join(', ')}`);
  const raw = input.properties[channel];
  const restored = options.previous?.channel === channel ? restoreMaskedSecrets(channel, raw, options.previous.config) : raw;
  // Parsed inside the body's shape, so that messages name the whole path (properties.email.emails.1).
  const wrapped = z.object({ properties: z.object({ [channel]: CHANNEL_SCHEMAS[channel] as z.ZodType<ChannelConfig> }) });
  const config = parseInput(wrapped, { properties: { [channel]: restored } }).properties[channel] as ChannelConfig;

  const target = TARGET_FIELDS[channel];
  if (target && options.denyPrivateTargets) {
    const url = new URL((config as Record<string, string>)[target]!);
    if (isPrivateHostLiteral(url.hostname)) {
      throw invalidInput(`invalid properties.${channel}.${target}: ${url.hostname} is a loopback or private address, which NOTIFIER_DENY_PRIVATE refuses`);
    }
  }
  if (channel === 'customWebhook') {
    const template = (config as ChannelConfig<'customWebhook'>).body;
    if (template.trim() !== '') {
      try {
        await renderWebhookTemplate(template, SAMPLE_TEMPLATE_DATA);
      } catch (error) {
        if (error instanceof TemplateError) throw invalidInput(`invalid properties.customWebhook.body: the template does not work: ${error.message}`);
        throw error;
      }
    }
  }
  return { name: input.name, channel, config, disabledUntil: input.disabledUntil };
}

/** Replaces masked secrets sent back by a client with the stored values they stand for. */
function restoreMaskedSecrets(channel: ChannelName, raw: unknown, stored: ChannelConfig): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const next: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const old = stored as Record<string, unknown>;
  for (const field of SECRET_FIELDS[channel]) {
    const value = next[field];
    if (typeof value === 'string' && typeof old[field] === 'string' && value === maskSecret(old[field] as string)) next[field] = old[field];
  }
  if (channel === 'customWebhook' && next.secretHeaders && typeof next.secretHeaders === 'object') {
    const oldHeaders = (old.secretHeaders ?? {}) as Record<string, string>;
    const headersIn = { ...(next.secretHeaders as Record<string, unknown>) };
    for (const [name, value] of Object.entries(headersIn)) {
      if (typeof value === 'string' && oldHeaders[name] !== undefined && value === maskSecret(oldHeaders[name])) headersIn[name] = oldHeaders[name];
    }
    next.secretHeaders = headersIn;
  }
  return next;
}

/** The channel's settings as the API shows them, secrets masked. */
export function maskedConfig(channel: ChannelName, config: ChannelConfig): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  for (const field of SECRET_FIELDS[channel]) {
    if (typeof shown[field] === 'string') shown[field] = maskSecret(shown[field] as string);
  }
  if (channel === 'customWebhook') {
    const secretHeaders = (config as ChannelConfig<'customWebhook'>).secretHeaders;
    shown.secretHeaders = Object.fromEntries(Object.entries(secretHeaders).map(([name, value]) => [name, maskSecret(value)]));
  }
  return shown;
}
