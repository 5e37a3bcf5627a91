/**
 * Whether the client's address may be taken from X-Forwarded-For (Fastify's `trustProxy`): only
 * behind a reverse proxy that sets it, else any client could claim any address (and so another
 * country for GET /services/umisteni, or another client's rate limits). Off by default.
 *
 *   ISOBAR_TRUST_PROXY   unset, '', 0, false   the socket's address (default)
 *                        true                  every proxy in front (the left-most forwarded address)
 *                        a whole number n      the n nearest hops are proxies (1: one proxy in front;
 *                                              the client is the n-th forwarded address from the right)
 *                        a comma list          the proxies' own addresses or CIDR ranges, e.g.
 *                                              127.0.0.1,10.0.0.0/8
 */

/** Fastify's trustProxy: all, none, a comma list of addresses and ranges, or a test per hop (0: the socket's peer). */
export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

export function trustProxyFromEnv(env: NodeJS.ProcessEnv = process.env): TrustProxy {
  const value = (env.ISOBAR_TRUST_PROXY ?? '').trim();
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(value)) {
    // As proxy-addr reads a hop count: trust the n nearest hops.
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((s) => s.trim()).filter(Boolean).join(',');
}
