// Sends mail through the SMTP server of SMTP_URL with nodemailer (one pooled transport), loaded
// with the first message.
import type nodemailerModule from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { onFirstUse } from '../../lib/on-first-use';
import { PermanentDeliveryError, TransientDeliveryError } from './http';

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const nodemailer = onFirstUse<typeof nodemailerModule>('nodemailer');

export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  let transport: Transporter | undefined;
  return {
    async send(message) {
      if (!smtpUrl) throw new PermanentDeliveryError('email notifiers need SMTP_URL: the server has no mail server configured');
      transport ??= nodemailer().createTransport(smtpUrl);
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, headers: message.headers });
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        const text = `the mail server refused the message: ${(error as Error).message}`.replace(/\s+/g, ' ').slice(0, 500);
        // SMTP 5xx replies are final; 4xx replies and connection problems are worth another try.
        if (code !== undefined && code >= 500) throw new PermanentDeliveryError(text);
        throw new TransientDeliveryError(code !== undefined ? text : `sending mail failed: ${(error as Error).message}`.slice(0, 500));
      }
    },
    close() {
      transport?.close();
    },
  };
}
