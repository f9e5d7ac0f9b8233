// One sender per channel of NotifierProperties.
import type { ChannelName } from '../../notifier-definitions';
import type { ChannelSender } from '../channel';
import { sendCustomWebhook } from './custom-webhook';
import { sendDiscordBot, sendDiscordWebhook } from './discord';
import { sendEmail } from './email';
import { sendMicrosoftTeams } from './microsoft-teams';
import { sendOpsgenie } from './opsgenie';
import { sendPagerDuty } from './pagerduty';
import { sendSlack } from './slack';
import { sendWebhook } from './webhook';

export const SENDERS: { [C in ChannelName]: ChannelSender<C> } = {
  customWebhook: sendCustomWebhook,
  webhook: sendWebhook,
  slack: sendSlack,
  discordWebhook: sendDiscordWebhook,
  discord: sendDiscordBot,
  microsoftTeams: sendMicrosoftTeams,
  pagerduty: sendPagerDuty,
  opsgenie: sendOpsgenie,
  email: sendEmail,
};
