/**
 * Publication of the storms (common/api/storms.ts) through the observation store: each source
 * writes its storms' details under `{source}/{id}.json`, then its own list `lists/{source}.json`,
 * then the merged `storms.json` (the manifest, written last). A storm several sources know (NHC's
 * live deck and IBTrACS's row of the same storm) is listed once, from the first of
 * SOURCE_PRIORITY. Merges run one at a time in this process, so no source's list is lost.
 */

import type { StormDetail, StormList, StormSummary } from '../../../common/api/storms.ts';
import { STORMS_KIND } from '../../../common/api/storms.ts';
import type { ObsStore } from '../core/store.ts';

/** Which source's storm is shown when several know it: the live ones before the archive. */
export const SOURCE_PRIORITY: readonly StormSummary['source'][] = ['nhc', 'jtwc', 'ibtracs'];

let merging: Promise<unknown> = Promise.resolve();

/** Publishes the storms of one source (its list replaces the source's previous one whole). */
export async function publishStorms(store: ObsStore, listName: string, storms: readonly StormDetail[], now: number): Promise<StormList> {
  for (const s of storms) await store.writeJson(STORMS_KIND, `${s.storm.source}/${s.storm.id}.json`, s);
  await store.writeJson(STORMS_KIND, `lists/${listName}.json`, { updated: now, storms: storms.map((s) => s.storm) } satisfies StormList);
  const next = merging.then(() => mergeLists(store, now));
  merging = next.catch(() => undefined);
  return next;
}

async function mergeLists(store: ObsStore, now: number): Promise<StormList> {
  const all: StormSummary[] = [];
  for (const name of (await store.list(STORMS_KIND, 'lists')).filter((n) => n.endsWith('.json'))) {
    const list = await store.readJson<StormList>(STORMS_KIND, `lists/${name}`);
    if (list) all.push(...list.storms);
  }
  const rank = (s: StormSummary) => SOURCE_PRIORITY.indexOf(s.source);
  const byId = new Map<string, StormSummary>();
  for (const s of all) {
    const held = byId.get(s.id);
    if (!held || rank(s) < rank(held)) byId.set(s.id, s);
  }
  // Active storms first, then the newest.
  const storms = [...byId.values()].sort((a, b) => Number(b.active) - Number(a.active) || b.last.time - a.last.time);
  const list: StormList = { updated: now, storms };
  await store.writeJson(STORMS_KIND, 'storms.json', list);
  return list;
}
