/**
 * SPEC §7 GET /tc/v2/storms/active/count and GET /tc/v2/storms (contract common/api/storms.ts):
 * the number of active storms and the storm list, read from the storms publication (publish.ts's
 * storms.json). Before any source has published, the count is 0 and the list is empty (updated 0):
 * no storms known is not an error.
 */

import type { FastifyInstance } from 'fastify';
import {
  STORMS_KIND, STORM_LIST, TC_ACTIVE_COUNT_ANSWER, TC_ACTIVE_COUNT_PATH, TC_STORMS_PATH, type StormList, type TcActiveCountAnswer,
} from '../../../common/api/storms.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ObsStore } from '../core/store.ts';

/** The list changes at most every poll of the storm sources (sources.ts). */
const CACHE_S = 60;

export async function tropicalRoutes(app: FastifyInstance, options: { dataDir: string | null; storage?: ObjectStore }): Promise<void> {
  const store = options.dataDir === null ? null : new ObsStore(options.dataDir, options.storage);
  const list = async (): Promise<StormList | null> => store === null ? null : store.readJson<StormList>(STORMS_KIND, 'storms.json');

  app.get(TC_ACTIVE_COUNT_PATH, { schema: { response: { 200: TC_ACTIVE_COUNT_ANSWER } } }, async (_request, reply): Promise<TcActiveCountAnswer> => {
    const storms = await list();
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    return { count: storms?.storms.filter((s) => s.active).length ?? 0, updated: storms?.updated ?? null };
  });

  app.get(TC_STORMS_PATH, { schema: { response: { 200: STORM_LIST } } }, async (_request, reply): Promise<StormList> => {
    const storms = await list();
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    return storms ?? { updated: 0, storms: [] };
  });
}
