// Slack incoming webhooks: `text` (shown in notifications) and Block Kit blocks.
import { type ChannelSender, clip, facts, postAndCheck } from '../channel';
import { headline } from '../../notification';

export function slackMessage(notification: Parameters<ChannelSender<'slack'>>[0]) {
  const emoji = notification.action === 'Open' ? ':red_circle:' : ':large_green_circle:';
  const title = `${emoji} ${headline(notification)}`;
  return {
    text: clip(`${title}\n${notification.body}`, 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(headline(notification), 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: clip(notification.matchedEvent ? `\`\`\`${notification.body}\`\`\`` : notification.body, 3000) } },
      { type: 'section', fields: facts(notification).slice(0, 10).map(([label, value]) => ({ type: 'mrkdwn', text: clip(`*${label}*\n${value}`, 2000) })) },
    ],
  };
}

export const sendSlack: ChannelSender<'slack'> = (notification, config, context) => postAndCheck(config.slackUrl, slackMessage(notification), context);
