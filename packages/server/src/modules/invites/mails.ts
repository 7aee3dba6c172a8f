import type { Mail } from '../../mail/mailer.js';

/** The invitation mail. Plain text, like the account mails: every client shows the link. */
export function inviteMail(opts: {
  to: string;
  org: string;
  role: string;
  inviter: string;
  title: string;
  url: string;
  expiresAt: Date;
}): Mail {
  return {
    to: opts.to,
    subject: `You have been invited to organization ${opts.org} on ${opts.title}`,
    text:
      `Hello,\n\n` +
      `${opts.inviter} invited you to join the organization ${opts.org} on ${opts.title} ` +
      `as ${opts.role}. To accept, open this link:\n\n` +
      `${opts.url}\n\n` +
      `The invitation expires on ${opts.expiresAt.toUTCString()}. ` +
      `If you do not want to join, ignore this mail or decline the invitation.\n`,
    links: [opts.url],
  };
}
