// Custom webhooks: the notifier's Go template (or the default one) rendered with the
// notification's variables, POSTed as application/json with the notifier's headers.
import { type ChannelSender, postAndCheck } from '../channel';
import { PermanentDeliveryError } from '../http';
import { DEFAULT_WEBHOOK_TEMPLATE, renderWebhookTemplate, TemplateError } from '../template';
import { templateData } from '../../notification';

export const sendCustomWebhook: ChannelSender<'customWebhook'> = async (notification, config, context) => {
  let body: string;
  try {
    body = await renderWebhookTemplate(config.body.trim() ? config.body : DEFAULT_WEBHOOK_TEMPLATE, templateData(notification));
  } catch (error) {
    if (error instanceof TemplateError) throw new PermanentDeliveryError(`the template failed: ${error.message}`);
    throw error;
  }
  return postAndCheck(config.url, body, context, { ...config.headers, ...config.secretHeaders });
};
