import type { Db } from '../../db/client.js';
import { changeBalance, takeMemberCredits } from './store-ledger.js';
import { insertUsageRecord } from './store-usage.js';

/** A database or a transaction of it: a charge joins the caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Running work (jobs and apps) is charged at least this often. */
export const CHARGE_INTERVAL_MS = 60_000;

export type UsageCategory = 'jobs' | 'apps' | 'storage' | 'disks';

/** One period of one resource's usage, against its organization, project and user. */
export interface Usage {
  category: UsageCategory;
  cluster: string;
  org: string;
  project: string;
  userId: string | null;
  /** What is charged (a job's or a project's storage URI): with `from`, charged once. */
  resourceUri: string;
  /** Its name in reports: a job's id, an app instance's name, a storage volume's name. */
  resourceId: string;
  presetName?: string | null;
  from: Date;
  until: Date;
  credits: number;
}

/** Credits, rounded to the columns' four decimals, as a decimal string. */
export const decimal = (n: number) => (Math.round(n * 10_000) / 10_000).toFixed(4);

/**
 * Records one period of usage and takes it from the organization's balance and the user's own
 * limit in it, in the caller's transaction. A period already recorded (the same resource and
 * start: another replica's charge, or a retry of a committed one) is not charged again: returns
 * false and changes nothing.
 */
export async function accrue(tx: Tx, u: Usage): Promise<boolean> {
  const amount = decimal(u.credits);
  const fresh = await insertUsageRecord(tx, {
    category: u.category,
    clusterName: u.cluster,
    orgName: u.org,
    projectName: u.project,
    userId: u.userId,
    resourceUri: u.resourceUri,
    resourceId: u.resourceId,
    presetName: u.presetName ?? null,
    startedAt: u.from,
    endedAt: u.until,
    credits: amount,
  });
  if (!fresh) return false;
  if (Number(amount) === 0) return true;
  await changeBalance(tx, {
    org: u.org,
    kind: 'usage',
    credits: `-${amount}`,
    userId: u.userId,
    reference: u.resourceUri,
  });
  if (u.userId) await takeMemberCredits(tx, u.org, u.userId, amount);
  return true;
}
