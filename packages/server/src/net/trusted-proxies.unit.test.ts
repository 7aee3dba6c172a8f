import { describe, expect, it } from 'vitest';
import { isAddressOrCidr, proxyTrust } from './trusted-proxies.js';

describe('trusted proxies', () => {
  it('trusts the listed addresses and ranges only, IPv4 peers of a dual-stack socket included', () => {
    const trusted = proxyTrust(['10.0.0.5', '192.168.0.0/16', 'fd00::/8']);
    expect(trusted('10.0.0.5')).toBe(true);
    expect(trusted('::ffff:10.0.0.5')).toBe(true);
    expect(trusted('192.168.44.1')).toBe(true);
    expect(trusted('fd12::1')).toBe(true);
    expect(trusted('10.0.0.6')).toBe(false);
    expect(trusted('127.0.0.1')).toBe(false);
    expect(trusted('')).toBe(false);
    expect(proxyTrust([])('10.0.0.5')).toBe(false);
  });

  it('accepts addresses and CIDR ranges, nothing else', () => {
    for (const ok of ['10.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '0.0.0.0/0']) {
      expect(isAddressOrCidr(ok), ok).toBe(true);
    }
    for (const bad of [
      'proxy.local',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.1/8/8',
      '10.0.0/8',
      '',
    ]) {
      expect(isAddressOrCidr(bad), bad).toBe(false);
    }
  });
});
