// Mails an invitation or reset link to its person through the SMTP server of SMTP_URL (when one
// is configured), so operators need not pass links on by hand.
import { createMailer } from '../monitors/delivery/mailer';
import type { IssuedLink } from './login-links';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function messageOf(link: IssuedLink): { subject: string; text: string } {
  const until = link.expiresAt.toUTCString();
  if (link.kind === 'invite') {
    const where = link.organization ? ` to the organization "${link.organization.name}"` : '';
    return {
      subject: `You are invited to eventdeck${link.organization ? `: ${link.organization.name}` : ''}`,
      text: `You have been invited${where} on eventdeck.\n\nChoose your password here (the link works once, until ${until}):\n\n${link.url}\n`,
    };
  }
  return {
    subject: 'Reset your eventdeck password',
    text: `Someone asked to reset the password of ${link.email} on eventdeck.\n\nChoose a new password here (the link works once, until ${until}):\n\n${link.url}\n\nIf this was not you, ignore this mail.\n`,
  };
}

/** Sends the link; returns false when no mail server is configured. */
export async function mailLink(smtpUrl: string | undefined, from: string, link: IssuedLink): Promise<boolean> {
  if (!smtpUrl) return false;
  const mailer = createMailer(smtpUrl, from);
  const { subject, text } = messageOf(link);
  const html = `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>').replace(escapeHtml(link.url), `<a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a>`)}</p>`;
  try {
    await mailer.send({ to: [link.email], subject, text, html });
    return true;
  } finally {
    mailer.close();
  }
}
