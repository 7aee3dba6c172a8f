import { describe, expect, it } from 'vitest';
import { toCamel } from '@orrery/contract';
import type { Job } from '../../api/jobs';
import { samplesSpan, xTicks, yTicks } from './observability/LoadCharts';
import { canWatchLoad, jobActions, percentOf, STATUS_COLOR } from './rules';
import { jobWire } from './test-fixtures';

const job = (over: Parameters<typeof jobWire>[0] = {}) => toCamel(jobWire(over)) as Job;

describe('job rules', () => {
  it('colours statuses: pending and suspended yellow, running and succeeded green, failed and cancelled red', () => {
    expect(STATUS_COLOR).toEqual({
      pending: 'yellow',
      suspended: 'yellow',
      running: 'green',
      succeeded: 'green',
      failed: 'red',
      cancelled: 'red',
    });
  });

  it('kills suspended jobs from lists only', () => {
    const suspended = job({ status: 'suspended' });
    expect(jobActions(suspended, 'alice', 'list').kill.enabled).toBe(true);
    expect(jobActions(suspended, 'alice', 'page').kill).toEqual({
      enabled: false,
      why: 'Only a pending or running job can be killed',
    });
  });

  it('says why another user cannot rerun', () => {
    expect(jobActions(job({ status: 'failed' }), 'bob').rerun.why).toBe(
      'Only the owner of the job can rerun it',
    );
  });

  it('watches load only while running or without a status', () => {
    expect(
      [undefined, 'running', 'pending', 'succeeded'].map((s) => canWatchLoad(s as never)),
    ).toEqual([true, true, false, false]);
  });

  it('turns usage into rounded percentages of the limit', () => {
    expect(percentOf(0.333, 1)).toBe(33);
    expect(percentOf(3 * 2 ** 29, 2 ** 30)).toBe(150);
    expect(percentOf(1, 0)).toBe(0);
  });

  it('draws 5 y intervals and an x tick every 5 seconds', () => {
    expect(yTicks(42)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(yTicks(512)).toEqual([0, 120, 240, 360, 480, 600]);
    expect(yTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    const points = [1001.2, 1004, 1009.9, 1016].map((time) => ({ time, cpu: 1, memory: 1 }));
    expect(xTicks(samplesSpan(points))).toEqual([1005, 1010, 1015]);
    // The metrics dashboard's axis is its whole window, whatever was sampled in it.
    expect(xTicks([1000, 1900])).toHaveLength(181);
  });
});
