// Opsgenie Alert API: an Open creates an alert whose alias is the alert's key; a Closed closes
// the alert with that alias. `isEU` picks the EU instance.
import { type ChannelSender, clip, facts, postAndCheck } from '../channel';
import { headline, type Notification } from '../../notification';

export function opsgenieAlert(notification: Notification) {
  return {
    message: clip(headline(notification), 130),
    alias: clip(notification.incidentKey, 512),
    description: clip(notification.body, 15_000),
    source: 'eventdeck',
    priority: 'P1',
    entity: clip(notification.monitor.name, 512),
    tags: ['eventdeck', notification.monitor.type],
    details: Object.fromEntries(facts(notification).map(([label, value]) => [label, clip(value, 8000)])),
  };
}

export const sendOpsgenie: ChannelSender<'opsgenie'> = (notification, config, context) => {
  const base = config.isEU ? context.settings.endpoints.opsgenieEu : context.settings.endpoints.opsgenie;
  const authorization = { authorization: `GenieKey ${config.apiKey}` };
  if (notification.action === 'Closed') {
    const url = `${base}/v2/alerts/${encodeURIComponent(notification.incidentKey)}/close?identifierType=alias`;
    return postAndCheck(url, { source: 'eventdeck', note: clip(notification.body, 25_000) }, context, authorization);
  }
  return postAndCheck(`${base}/v2/alerts`, opsgenieAlert(notification), context, authorization);
};
