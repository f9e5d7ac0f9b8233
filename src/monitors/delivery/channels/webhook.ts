// Plain webhooks: the default custom webhook body (action and event), POSTed as JSON.
import { type ChannelSender, postAndCheck } from '../channel';
import { DEFAULT_WEBHOOK_TEMPLATE, renderWebhookTemplate } from '../template';
import { templateData } from '../../notification';

export const sendWebhook: ChannelSender<'webhook'> = async (notification, config, context) =>
  postAndCheck(config.url, await renderWebhookTemplate(DEFAULT_WEBHOOK_TEMPLATE, templateData(notification)), context);
