/**
 * The worker thread that reads GeoNames' other names for the search (geoNamesAlternates.ts
 * alternateEntries), run by a one-thread WorkerPool of gazetteer.ts: seconds of CPU off the event loop.
 */

import { serveTasks } from '../data/workerPool.ts';
import { alternateEntries, cities500Path, type AlternateEntries } from './geoNamesAlternates.ts';

export interface AlternatesTask {
  ids: Int32Array;
  names: string[];
}

serveTasks<AlternatesTask, AlternateEntries>(({ ids, names }) => alternateEntries(cities500Path(), ids, names), (out) => [out.places.buffer as ArrayBuffer]);
