/**
 * GET /services/umisteni (SPEC §7: "ll (lat, lon), country, city"): where the user probably is,
 * for the IP start-up position (SPEC §4). Without a GeoIP database this is the capital of the
 * country the browser's languages suggest (server/location/approximateLocation.ts), marked
 * approximate. Not cached by clients (the client keeps it 12 h itself, SPEC §9).
 */

import type { FastifyInstance } from 'fastify';
import { approximateLocation, loadCapitals } from '../location/approximateLocation.ts';

const schema = {
  response: {
    200: {
      type: 'object',
      required: ['ll', 'country', 'city', 'approximate', 'source'],
      properties: {
        ll: { anyOf: [{ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }, { type: 'null' }] },
        country: { type: ['string', 'null'] },
        city: { type: ['string', 'null'] },
        approximate: { type: 'boolean' },
        source: { type: 'string' },
      },
    },
  },
} as const;

export async function servicesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/services/umisteni', { schema }, async (request, reply) => {
    const capitals = await loadCapitals();
    reply.header('cache-control', 'no-store').header('vary', 'accept-language');
    return approximateLocation(request.headers['accept-language'], capitals);
  });
}
