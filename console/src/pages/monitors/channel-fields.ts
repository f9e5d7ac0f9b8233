// The settings of each notifier channel as the notifier form edits them, and their mapping to and
// from the API's `properties`. Secrets arrive masked (`https://hooks.slack.com/*****`,
// `*****cdef`); the form starts from those masked values, and sending one back unchanged keeps
// the stored secret, so a secret is only ever typed, never shown.
import type { ChannelName, Notifier, NotifierInput } from '../../api/monitors';

export type FieldKind = 'text' | 'secret' | 'boolean' | 'list' | 'headers' | 'template';

export interface ChannelField {
  key: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  hint?: string;
}

export const CHANNEL_LABELS: Record<ChannelName, string> = {
  webhook: 'Webhook',
  customWebhook: 'Custom webhook',
  slack: 'Slack',
  discordWebhook: 'Discord (webhook)',
  discord: 'Discord (bot)',
  microsoftTeams: 'Microsoft Teams',
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
  email: 'Email',
};

export const CHANNEL_FIELDS: Record<ChannelName, ChannelField[]> = {
  webhook: [{ key: 'url', label: 'URL', kind: 'text', required: true, hint: 'Receives the default JSON body (action and event) by POST' }],
  customWebhook: [
    { key: 'url', label: 'URL', kind: 'text', required: true },
    { key: 'headers', label: 'Headers', kind: 'headers', required: false, hint: 'One per line: Name: value' },
    { key: 'secretHeaders', label: 'Secret headers', kind: 'headers', required: false, hint: 'One per line: Name: value; shown masked once saved' },
    { key: 'body', label: 'Body template', kind: 'template', required: false, hint: 'A Go template (.Action, .Title, .Value, .GroupKeys…); empty: the default body' },
  ],
  slack: [{ key: 'slackUrl', label: 'Incoming webhook URL', kind: 'secret', required: true }],
  discordWebhook: [{ key: 'discordWebhookUrl', label: 'Webhook URL', kind: 'secret', required: true }],
  discord: [
    { key: 'discordToken', label: 'Bot token', kind: 'secret', required: true },
    { key: 'discordChannel', label: 'Channel id', kind: 'text', required: true },
  ],
  microsoftTeams: [{ key: 'microsoftTeamsUrl', label: 'Incoming webhook URL', kind: 'secret', required: true }],
  pagerduty: [
    { key: 'routingKey', label: 'Routing key', kind: 'secret', required: true },
    { key: 'token', label: 'API token', kind: 'secret', required: false },
  ],
  opsgenie: [
    { key: 'apiKey', label: 'API key', kind: 'secret', required: true },
    { key: 'isEU', label: 'EU instance', kind: 'boolean', required: false },
  ],
  email: [{ key: 'emails', label: 'Email addresses', kind: 'list', required: true, hint: 'One per line' }],
};

export type ChannelValues = Record<string, string | boolean>;

export interface NotifierForm {
  name: string;
  channel: ChannelName;
  values: ChannelValues;
  /** `YYYY-MM-DDTHH:mm`, local; empty for none. */
  disabledUntil: string;
}

function emptyValues(channel: ChannelName): ChannelValues {
  return Object.fromEntries(CHANNEL_FIELDS[channel].map((field) => [field.key, field.kind === 'boolean' ? false : '']));
}

export function emptyNotifierForm(channel: ChannelName = 'webhook'): NotifierForm {
  return { name: '', channel, values: emptyValues(channel), disabledUntil: '' };
}

const pad = (value: number) => String(value).padStart(2, '0');

function headerText(headers: unknown): string {
  if (!headers || typeof headers !== 'object') return '';
  return Object.entries(headers as Record<string, unknown>)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n');
}

/** The form for a saved notifier, its secrets as the API masked them. */
export function notifierFormOf(notifier: Notifier, channel: ChannelName): NotifierForm {
  const settings = notifier.properties[channel] ?? {};
  const values: ChannelValues = {};
  for (const field of CHANNEL_FIELDS[channel]) {
    const value = settings[field.key];
    if (field.kind === 'boolean') values[field.key] = value === true;
    else if (field.kind === 'list') values[field.key] = Array.isArray(value) ? value.join('\n') : '';
    else if (field.kind === 'headers') values[field.key] = headerText(value);
    else values[field.key] = typeof value === 'string' ? value : '';
  }
  const until = notifier.disabledUntil ? new Date(notifier.disabledUntil) : undefined;
  return {
    name: notifier.name,
    channel,
    values,
    disabledUntil: until ? `${until.getFullYear()}-${pad(until.getMonth() + 1)}-${pad(until.getDate())}T${pad(until.getHours())}:${pad(until.getMinutes())}` : '',
  };
}

function headersOf(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    // A line without a colon is sent as a name with an empty value: the server names what is wrong.
    if (colon < 0) headers[line.trim()] = '';
    else headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The body for POST/PUT /v2/notifiers. */
export function notifierInputOf(form: NotifierForm): NotifierInput {
  const settings: Record<string, unknown> = {};
  for (const field of CHANNEL_FIELDS[form.channel]) {
    const value = form.values[field.key];
    if (field.kind === 'boolean') settings[field.key] = value === true;
    else if (field.kind === 'list') settings[field.key] = String(value ?? '').split(/[\n,]/).map((item) => item.trim()).filter(Boolean);
    else if (field.kind === 'headers') settings[field.key] = headersOf(String(value ?? ''));
    else if (field.required || String(value ?? '') !== '') settings[field.key] = String(value ?? '');
  }
  return {
    name: form.name,
    properties: { [form.channel]: settings },
    disabledUntil: form.disabledUntil ? new Date(form.disabledUntil).toISOString() : null,
  };
}

/** The form after choosing another channel: that channel's fields, empty. */
export function withChannel(form: NotifierForm, channel: ChannelName): NotifierForm {
  return { ...form, channel, values: emptyValues(channel) };
}

/** Where a notifier sends, in a few words, secrets masked as the API gives them. */
export function targetText(notifier: Notifier, channel: ChannelName | undefined): string {
  if (!channel) return '';
  const settings = notifier.properties[channel] ?? {};
  switch (channel) {
    case 'email':
      return Array.isArray(settings.emails) ? settings.emails.join(', ') : '';
    case 'discord':
      return `channel ${String(settings.discordChannel ?? '')}`;
    case 'pagerduty':
      return `routing key ${String(settings.routingKey ?? '')}`;
    case 'opsgenie':
      return `${settings.isEU ? 'EU, ' : ''}key ${String(settings.apiKey ?? '')}`;
    default: {
      const url = settings.url ?? settings.slackUrl ?? settings.discordWebhookUrl ?? settings.microsoftTeamsUrl;
      return typeof url === 'string' ? url : '';
    }
  }
}
