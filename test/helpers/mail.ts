// A mail server on 127.0.0.1 that keeps what it receives, parsed, for tests of what the server
// mails (notifications, invitations): `SMTP_URL` points at it.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients. */
  envelopeTo: string[];
  mail: ParsedMail;
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Every mail received so far, in order. */
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push({ envelopeTo: session.envelope.rcptTo.map((to) => to.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
