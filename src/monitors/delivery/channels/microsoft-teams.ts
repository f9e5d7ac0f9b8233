// Microsoft Teams incoming webhooks (and Workflows webhooks): a message with an Adaptive Card.
import { type ChannelSender, clip, facts, postAndCheck } from '../channel';
import { headline, type Notification } from '../../notification';

export function teamsMessage(notification: Notification) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', size: 'Large', weight: 'Bolder', wrap: true, color: notification.action === 'Open' ? 'Attention' : 'Good', text: clip(headline(notification), 500) },
            { type: 'TextBlock', wrap: true, text: clip(notification.body, 10_000), ...(notification.matchedEvent ? { fontType: 'Monospace' } : {}) },
            { type: 'FactSet', facts: facts(notification).map(([title, value]) => ({ title, value: clip(value, 1000) })) },
          ],
        },
      },
    ],
  };
}

export const sendMicrosoftTeams: ChannelSender<'microsoftTeams'> = (notification, config, context) =>
  postAndCheck(config.microsoftTeamsUrl, teamsMessage(notification), context);
