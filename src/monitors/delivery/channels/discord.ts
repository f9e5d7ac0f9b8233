// Discord, through a channel webhook or as a bot posting to a channel: a message with an embed.
import { CLOSED_COLOR, type ChannelSender, clip, facts, OPEN_COLOR, postAndCheck } from '../channel';
import { headline, type Notification } from '../../notification';

export function discordMessage(notification: Notification) {
  return {
    content: clip(headline(notification), 2000),
    embeds: [
      {
        title: clip(headline(notification), 256),
        description: clip(notification.matchedEvent ? `\`\`\`json\n${notification.body}\n\`\`\`` : notification.body, 4096),
        color: notification.action === 'Open' ? OPEN_COLOR : CLOSED_COLOR,
        timestamp: notification.timestamp,
        fields: facts(notification).slice(0, 25).map(([name, value]) => ({ name: clip(name, 256), value: clip(value, 1024), inline: false })),
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export const sendDiscordWebhook: ChannelSender<'discordWebhook'> = (notification, config, context) =>
  postAndCheck(config.discordWebhookUrl, discordMessage(notification), context);

export const sendDiscordBot: ChannelSender<'discord'> = (notification, config, context) => {
  const token = /^Bot\s/i.test(config.discordToken) ? config.discordToken : `Bot ${config.discordToken}`;
  const url = `${context.settings.endpoints.discord}/channels/${encodeURIComponent(config.discordChannel)}/messages`;
  return postAndCheck(url, discordMessage(notification), context, { authorization: token });
};
