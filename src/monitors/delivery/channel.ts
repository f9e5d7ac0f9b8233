// What every channel shares: the context it sends in, how an HTTP answer becomes a success or a
// (transient or permanent) failure, and the facts a chat message or mail lists.
import type { MonitorsConfig } from '../../config';
import { formatValue, groupText, type Notification } from '../notification';
import type { ChannelConfig, ChannelName } from '../notifier-definitions';
import { type HttpResult, PermanentDeliveryError, postJson, TransientDeliveryError } from './http';
import type { Mailer } from './mailer';

export interface ChannelContext {
  settings: MonitorsConfig;
  mailer: Mailer;
  /** Unique per notification and notifier: receivers can drop repeats by it. */
  deliveryId: string;
}

export interface ChannelResult {
  statusCode?: number;
}

export type ChannelSender<C extends ChannelName> = (notification: Notification, config: ChannelConfig<C>, context: ChannelContext) => Promise<ChannelResult>;

/** Posts JSON and turns the answer into a result: 2xx succeeds, 408/429/5xx may be retried, other 4xx are final. */
export async function postAndCheck(url: string, body: unknown, context: ChannelContext, headers: Record<string, string> = {}): Promise<ChannelResult> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const result = await postJson(url, text, {
    headers: { 'idempotency-key': context.deliveryId, ...headers },
    denyPrivate: context.settings.denyPrivateTargets,
  });
  return checkAnswer(result, new URL(url).host);
}

export function checkAnswer(result: HttpResult, host: string): ChannelResult {
  if (result.status >= 200 && result.status < 300) return { statusCode: result.status };
  const detail = result.body.trim() ? `: ${result.body.trim().slice(0, 300)}` : '';
  const message = `${host} answered ${result.status}${detail}`;
  if (result.status === 408 || result.status === 429 || result.status >= 500) throw Object.assign(new TransientDeliveryError(message), { statusCode: result.status });
  throw Object.assign(new PermanentDeliveryError(message), { statusCode: result.status });
}

export const OPEN_COLOR = 0xd93025;
export const CLOSED_COLOR = 0x1e8e3e;

/** The facts of a notification, as label/value pairs for chat cards and mails. */
export function facts(notification: Notification): [string, string][] {
  const list: [string, string][] = [['Monitor', notification.monitor.name]];
  const group = groupText(notification.groupKeys, notification.groupValues);
  if (group) list.push(['Group', group]);
  if (notification.reason === 'threshold' || notification.reason === 'anomaly') list.push(['Value', formatValue(notification.value)]);
  const start = new Date(Number(BigInt(notification.queryStartNanos) / 1_000_000n)).toISOString();
  const end = new Date(Number(BigInt(notification.queryEndNanos) / 1_000_000n)).toISOString();
  list.push(['Query window', `${start} to ${end}`]);
  if (notification.monitor.description) list.push(['Description', notification.monitor.description]);
  return list;
}

/** Cuts text to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
