import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type StreamTransport from 'nodemailer/lib/stream-transport/index.js';
import type { FastifyBaseLogger } from 'fastify';
import { lazily } from '../lazy.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Links in the mail, logged when the mail goes to the outbox so an operator can follow them. */
  links?: string[];
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP when `SMTP_URL` is set; otherwise the outbox: one `.eml` file per mail under
 * `<data dir>/outbox/` and a log line with its links. Both build the message with nodemailer,
 * loaded with the first mail: most starts send none, and loading it took a twentieth of a start.
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    const transport = lazily(async (): Promise<Transporter<SMTPTransport.SentMessageInfo>> => {
      const { default: nodemailer } = await import('nodemailer');
      return nodemailer.createTransport(smtpUrl);
    });
    return {
      async send(mail) {
        await (
          await transport()
        ).sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
        opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  const transport = lazily(async (): Promise<Transporter<StreamTransport.SentMessageInfo>> => {
    const { default: nodemailer } = await import('nodemailer');
    return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  });
  mkdirSync(opts.outboxDir, { recursive: true });
  return {
    async send(mail) {
      const info = await (
        await transport()
      ).sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      const file = join(
        opts.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      opts.log.info(
        { to: mail.to, subject: mail.subject, file, links: mail.links ?? [] },
        'mail written to outbox',
      );
    },
  };
}
