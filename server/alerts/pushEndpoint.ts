/**
 * Which Web Push endpoints the server sends to (issue 12 §1.3: a push endpoint is a URL the user
 * gives, and the server POSTs to it, so it must not reach the server's own network).
 *
 * An endpoint is accepted when it is https (RFC 8030 §8: a push service is reached over TLS),
 * carries no user name or password, and its host, an address written in the URL or a name, stands
 * only for public addresses: a name is resolved and every address it gives must be public. The check
 * runs when a device registers (a clear 400) and again before every send, and the send connects to
 * the addresses that check answered (pinnedLookup), so a DNS answer that changes between the check
 * and the connection (a rebind) cannot send the request elsewhere.
 *
 * "Public" is a global unicast address: for IPv4 none of the IANA special-purpose ranges (loopback,
 * RFC 1918 private, link-local, carrier-grade NAT, this-network 0/8, documentation, benchmarking,
 * multicast, reserved, broadcast); for IPv6 inside 2000::/3 and none of its special ranges (NAT64,
 * 6to4, Teredo, documentation, ...), so loopback, link-local, unique-local, IPv4-compatible and
 * IPv4-mapped forms are refused too (a mapped address is judged as the IPv4 address it carries).
 * The URL parser has already turned decimal, octal and hex IPv4 spellings (http://2130706433/,
 * http://0x7f.1/) into the dotted form. The ranges come from ipaddr.js, which follows the registries.
 *
 * Origins listed in `allowedOrigins` (ISOBAR_PUSH_ALLOW_ORIGINS, exact origins such as
 * http://127.0.0.1:9093) are accepted without these checks: for a test run that stands in a local
 * HTTP server for the browser vendor's push service. Unset (the default), there are none.
 *
 * The same rules guard the webcam addresses the server stores and fetches (server/routes/users.ts,
 * server/webcams/imageRelay.ts), with their own allow-list, ISOBAR_WEBCAMS_ALLOW_ORIGINS.
 */

import { lookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress { address: string; family: 4 | 6 }

/** Resolves a host name to all its addresses (the system's resolver, or a test's). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** An endpoint the server will not send to; the message says why (it goes back to the client as a 400). */
export class PushEndpointError extends Error {
  override name = 'PushEndpointError';
}

/** An endpoint that passed the check, with the addresses a request to it must connect to. */
export interface CheckedEndpoint {
  url: URL;
  addresses: ResolvedAddress[];
}

/** The environment variable naming the origins accepted without the checks (for tests). */
const PUSH_ALLOW_ORIGINS_ENV = 'ISOBAR_PUSH_ALLOW_ORIGINS';

/** IANA's global unicast block: every public IPv6 address lies in it (RFC 4291 §2.4). */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The address's special-purpose range ('loopback', 'private', ...), or null when it is public. */
export function nonPublicRange(address: string): string | null {
  if (isIP(address) === 0) return 'not an IP address';
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it carries.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !ip.match(IPV6_GLOBAL_UNICAST)) return 'outside the global unicast block 2000::/3';
  return null;
}

/**
 * An allow-list variable parsed (default `ISOBAR_PUSH_ALLOW_ORIGINS`): comma-separated exact
 * origins; anything else is an error at start-up.
 */
export function allowedOriginsFromEnv(env: NodeJS.ProcessEnv = process.env, variable = PUSH_ALLOW_ORIGINS_ENV): string[] {
  const text = env[variable]?.trim();
  if (!text) return [];
  return text.split(',').map((part) => {
    const origin = part.trim();
    const url = URL.canParse(origin) ? new URL(origin) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
      throw new Error(`${variable}: "${origin}" is not an origin such as http://127.0.0.1:9093 (scheme, host and port only)`);
    }
    return origin;
  });
}

export interface PushEndpointOptions {
  resolve?: HostResolver;
  /** What the address is, in the messages (default 'push endpoint'; the webcam addresses of server/webcams use the same rules). */
  what?: string;
  /** Exact origins accepted without the checks (see the file's header). */
  allowedOrigins?: readonly string[];
}

/** Checks an endpoint (see the file's header); throws PushEndpointError with the reason. */
export async function checkPushEndpoint(endpoint: string, options: PushEndpointOptions = {}): Promise<CheckedEndpoint> {
  const resolve = options.resolve ?? systemResolver;
  const what = options.what ?? 'push endpoint';
  if (!URL.canParse(endpoint)) throw new PushEndpointError(`The ${what} is not a URL`);
  const url = new URL(endpoint);
  // The URL's hostname keeps the brackets of an IPv6 address.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (options.allowedOrigins?.includes(url.origin)) {
    return { url, addresses: isIP(host) ? [{ address: host, family: isIP(host) === 6 ? 6 : 4 }] : await resolveOrFail(resolve, host, what) };
  }
  if (url.protocol !== 'https:') throw new PushEndpointError(`The ${what} must be an https URL`);
  if (url.username || url.password) throw new PushEndpointError(`The ${what} must not carry a user name or password`);
  if (isIP(host)) {
    const range = nonPublicRange(host);
    if (range) throw new PushEndpointError(`The ${what}'s address ${host} is not public (${range})`);
    return { url, addresses: [{ address: host, family: isIP(host) === 6 ? 6 : 4 }] };
  }
  const addresses = await resolveOrFail(resolve, host, what);
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range) throw new PushEndpointError(`The ${what}'s host ${host} resolves to ${address}, which is not public (${range})`);
  }
  return { url, addresses };
}

async function resolveOrFail(resolve: HostResolver, host: string, what: string): Promise<ResolvedAddress[]> {
  const addresses = await resolve(host).catch(() => []);
  if (addresses.length === 0) throw new PushEndpointError(`The ${what}'s host ${host} cannot be resolved`);
  return addresses;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request / net.connect that answers only the checked addresses, whatever
 * name it is asked for: the connection goes where the check looked, never to a fresh DNS answer.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const usable = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (usable.length === 0) {
      callback(Object.assign(new Error('no checked address of the asked family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, usable[0].address, usable[0].family);
  };
}
