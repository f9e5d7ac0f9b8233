// PagerDuty Events API v2: an Open triggers an alert and a Closed resolves it, both with the
// alert's dedup_key, so PagerDuty keeps one incident per alert (per group with notifyByGroup).
import { type ChannelSender, clip, postAndCheck } from '../channel';
import { headline, type Notification } from '../../notification';

export function pagerDutyEvent(notification: Notification, routingKey: string) {
  if (notification.action === 'Closed') return { routing_key: routingKey, event_action: 'resolve', dedup_key: notification.incidentKey };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: notification.incidentKey,
    client: 'eventdeck',
    payload: {
      summary: clip(`${headline(notification)}: ${notification.body}`, 1024),
      source: 'eventdeck',
      severity: 'critical',
      timestamp: notification.timestamp,
      component: notification.monitor.name,
      class: notification.monitor.type,
      custom_details: {
        monitorId: notification.monitor.id,
        description: notification.monitor.description,
        body: notification.body,
        value: notification.value,
        groupKeys: notification.groupKeys,
        groupValues: notification.groupValues,
        matchedEvent: notification.matchedEvent,
      },
    },
  };
}

export const sendPagerDuty: ChannelSender<'pagerduty'> = (notification, config, context) =>
  postAndCheck(context.settings.endpoints.pagerduty, pagerDutyEvent(notification, config.routingKey), context);
