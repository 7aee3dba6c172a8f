import type { Mail } from '../../mail/mailer.js';

/** The texts of the account mails. Plain text: every mail client shows it, and links stay visible. */
export function verificationMail(opts: {
  to: string;
  name: string;
  title: string;
  url: string;
}): Mail {
  return {
    to: opts.to,
    subject: `Verify your e-mail address for ${opts.title}`,
    text:
      `Hello ${opts.name},\n\n` +
      `Welcome to ${opts.title}. Please confirm your e-mail address by opening this link:\n\n` +
      `${opts.url}\n\n` +
      `The link is valid for 24 hours. If you did not create an account, ignore this mail.\n`,
    links: [opts.url],
  };
}

export function resetMail(opts: { to: string; name: string; title: string; url: string }): Mail {
  return {
    to: opts.to,
    subject: `Reset your ${opts.title} password`,
    text:
      `Hello ${opts.name},\n\n` +
      `Someone asked to reset the password of your ${opts.title} account. ` +
      `To choose a new password, open this link:\n\n` +
      `${opts.url}\n\n` +
      `The link is valid for one hour and works once. ` +
      `If you did not ask for this, ignore this mail: your password stays as it is.\n`,
    links: [opts.url],
  };
}
