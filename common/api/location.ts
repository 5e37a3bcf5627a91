/**
 * The IP start-up location contract (SPEC §7 "ll (lat, lon), country, city"; §4 IP start-up
 * position) of server/routes/startupLocation.ts and ui/services/startupPosition.ts:
 *
 *   GET /services/umisteni   -> IpLocationAnswer (not cached: the client keeps it 12 h, SPEC §9)
 */

import type { Infer } from './schema.ts';

export const IP_LOCATION_PATH = '/services/umisteni';

export const IP_LOCATION_ANSWER = {
  type: 'object',
  // SPEC §7's fields; approximate and source are this server's, which older servers lack.
  required: ['ll', 'country', 'city'],
  properties: {
    /** [lat, lon], or null when nothing is known. */
    ll: { anyOf: [{ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }, { type: 'null' }] },
    /** ISO 3166-1 alpha-2. */
    country: { type: ['string', 'null'] },
    city: { type: ['string', 'null'] },
    /** The country's capital, not the client's own place. */
    approximate: { type: 'boolean' },
    /** 'ip', 'accept-language' or 'none'. */
    source: { type: 'string' },
  },
} as const;
export type IpLocationAnswer = Infer<typeof IP_LOCATION_ANSWER>;
