// Email through SMTP: a subject with the action and alert, a plain text and an HTML part.
import { type ChannelSender, facts } from '../channel';
import { headline, type Notification } from '../../notification';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function emailContent(notification: Notification) {
  const list = facts(notification);
  const text = [headline(notification), '', notification.body, '', ...list.map(([label, value]) => `${label}: ${value}`)].join('\n');
  const body = notification.matchedEvent ? `<pre>${escapeHtml(notification.body)}</pre>` : `<p>${escapeHtml(notification.body)}</p>`;
  const rows = list.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('');
  const html = `<h2>${escapeHtml(headline(notification))}</h2>${body}<table>${rows}</table>`;
  return { subject: headline(notification), text, html };
}

export const sendEmail: ChannelSender<'email'> = async (notification, config, context) => {
  await context.mailer.send({ to: config.emails, ...emailContent(notification), headers: { 'X-Eventdeck-Delivery-Id': context.deliveryId } });
  return {};
};
