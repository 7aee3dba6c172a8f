import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { countHit, hitsOf } from './rate-limit-store.js';

/** What a limited caller is told: when to try again, rounded up to a minute past one minute. */
export function retryText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const wait =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? '' : 's'}`
      : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
  return `Too many attempts. Try again in ${wait}.`;
}

type Limit = { key: string; max: number };

/**
 * Failed sign-ins counted per account (whatever address they come from, so spreading tries over
 * many addresses does not help) and per client address (whatever accounts they aim at, so one
 * address cannot try a password on every account), in the shared `rate_limits` table. A sign-up
 * answer that an e-mail or user name is taken counts for its address too: it tells an attacker
 * that an account exists, as a failed sign-in would. Refusal comes before the password is
 * checked, so a right guess after the limit does not get through either.
 */
export function signInLimits(db: Db, config: Config['signInLimits']) {
  const account = (email: string): Limit[] =>
    email ? [{ key: `sign-in failed account ${email.toLowerCase()}`, max: config.perAccount }] : [];
  const address = (ip: string): Limit => ({
    key: `sign-in failed address ${ip}`,
    max: config.perAddress,
  });
  const taken = (ip: string): Limit => ({
    key: `sign-up taken address ${ip}`,
    max: config.perAddress,
  });

  /** Milliseconds until the first exhausted limit reopens, or 0 when none is exhausted. */
  async function wait(limits: Limit[]): Promise<number> {
    let ms = 0;
    for (const l of limits) {
      const hits = await hitsOf(db, l.key);
      if (hits && hits.current >= l.max) ms = Math.max(ms, hits.ttl, 1);
    }
    return ms;
  }
  const count = async (limits: Limit[]) => {
    for (const l of limits) await countHit(db, l.key, config.windowMs);
  };

  return {
    signInWait: (email: string, ip: string) => wait([...account(email), address(ip)]),
    signInFailed: (email: string, ip: string) => count([...account(email), address(ip)]),
    takenWait: (ip: string) => wait([taken(ip)]),
    takenAnswered: (ip: string) => count([taken(ip)]),
  };
}
