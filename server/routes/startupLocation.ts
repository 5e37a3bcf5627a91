/**
 * GET /services/umisteni (SPEC §7: "ll (lat, lon), country, city"): where the user probably is,
 * for the IP start-up position (SPEC §4): the capital of the country of the client's public IPv4
 * address (IP2Location LITE data), else of the country the browser's languages suggest
 * (server/location/approximateLocation.ts), marked approximate, with `source` saying which. The
 * client's address is the socket's, or the one a trusted reverse proxy forwards when
 * ISOBAR_TRUST_PROXY is set (server/http/trustProxy.ts). Not cached by clients (the client keeps
 * it 12 h itself, SPEC §9).
 */

import type { FastifyInstance } from 'fastify';
import { IP_LOCATION_ANSWER, IP_LOCATION_PATH } from '../../common/api/location.ts';
import { loadCapitals, locateClient } from '../location/approximateLocation.ts';
import { countryOfIp } from '../location/ipCountry.ts';

const schema = { response: { 200: IP_LOCATION_ANSWER } } as const;

export async function startupLocationRoutes(app: FastifyInstance): Promise<void> {
  app.get(IP_LOCATION_PATH, { schema }, async (request, reply) => {
    const [capitals, ipCountry] = await Promise.all([
      loadCapitals(),
      countryOfIp(request.ip).catch((error: unknown) => {
        // Without the table the browser's languages still give a country.
        request.log.warn({ err: error }, 'IP country lookup failed');
        return null;
      }),
    ]);
    reply.header('cache-control', 'no-store').header('vary', 'accept-language');
    return locateClient(ipCountry, request.headers['accept-language'], capitals);
  });
}
