import { BlockList, isIP } from 'node:net';

/** `10.0.0.1`, `10.0.0.0/8`, `fd00::1` or `fd00::/8`. */
export function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** An IPv4 peer on a dual-stack socket reads `::ffff:10.0.0.1`: the list names it `10.0.0.1`. */
const plain = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * Whether a peer is one of the operator's reverse proxies (ORRERY_TRUSTED_PROXIES), so that
 * the X-Forwarded-* headers it adds may be believed. With an empty list nobody is: anyone can
 * send those headers, and believing them let each try claim a new address.
 */
export function proxyTrust(entries: string[]): (address: string) => boolean {
  if (!entries.length) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (raw: string) => {
    const address = plain(raw);
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
