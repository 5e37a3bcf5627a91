/**
 * The rolling history of every weather station the server follows, whichever source observed it
 * (the NWS API here, METAR reports or a national network later), published atomically under
 * `{dataDir}/obs/stations/` (server/obs/core/store.ts):
 *
 *   history/{ID}.json   StationHistory (common/api/stations.ts): the station and its observations,
 *                       oldest first, the last STATION_HISTORY_MS
 *   stations.json       StationsDocument: every station with its latest observation, written last
 *
 * A source adds what it read with `addObservations(station, observations)` and then `publish()`s;
 * an observation of a time the station already has replaces it (a corrected report), older ones
 * than the retention are pruned. There is one history per data directory (`stationHistoryFor`), so
 * several sources feed the same files; its writes are queued, so two sources publishing at once
 * never interleave. On first use it reads back what was published, so a restart keeps the history.
 */

import { STATION_HISTORY_MS, type StationHistory, type StationInfo, type StationObservation, type StationSummary } from '../../../common/api/stations.ts';
import { REMOVE_GRACE_MS, type ObsStore } from '../core/store.ts';

export const STATIONS_DOCUMENT = 'stations.json';
export const historyFile = (id: string): string => `history/${id}.json`;

/** stations.json: what the list route reads. */
export interface StationsDocument {
  updated: number;
  stations: StationSummary[];
}

interface Entry {
  station: StationInfo;
  /** By time, ms. */
  observations: Map<number, StationObservation>;
  changed: boolean;
}

export class StationHistoryStore {
  private readonly entries = new Map<string, Entry>();
  private loaded: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** When each station whose file is still there left the list, ms. */
  private readonly leftAt = new Map<string, number>();

  constructor(readonly store: ObsStore, readonly retentionMs = STATION_HISTORY_MS) {}

  /** Reads back the published history (once); a file that does not parse is skipped. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const document = await this.store.readJson<StationsDocument>('stations', STATIONS_DOCUMENT).catch(() => null);
      for (const summary of document?.stations ?? []) {
        const history = await this.store.readJson<StationHistory>('stations', historyFile(summary.id)).catch(() => null);
        if (!history) continue;
        this.entries.set(summary.id, { station: history.station, observations: new Map(history.observations.map((o) => [o.time, o])), changed: false });
      }
    })();
    return this.loaded;
  }

  /**
   * Adds observations of a station (its metadata as the source knows it now). Returns how many were
   * new or changed. Observations must be whole: a source skips what it could not read.
   */
  async addObservations(station: StationInfo, observations: readonly StationObservation[]): Promise<number> {
    await this.load();
    let entry = this.entries.get(station.id);
    if (!entry) {
      entry = { station, observations: new Map(), changed: true };
      this.entries.set(station.id, entry);
    } else if (JSON.stringify(entry.station) !== JSON.stringify(station)) {
      entry.station = station;
      entry.changed = true;
    }
    let added = 0;
    for (const observation of observations) {
      const known = entry.observations.get(observation.time);
      if (known && JSON.stringify(known) === JSON.stringify(observation)) continue;
      entry.observations.set(observation.time, observation);
      entry.changed = true;
      added++;
    }
    return added;
  }

  /** The station's history as published next (oldest first), or null when it is not followed. */
  history(id: string): StationHistory | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    return { station: entry.station, observations: [...entry.observations.values()].sort((a, b) => a.time - b.time) };
  }

  /**
   * Prunes observations older than the retention and publishes: each changed station's history
   * first, the list last; a station left without observations leaves the list, and its file goes
   * REMOVE_GRACE_MS after (readers may hold the older list).
   */
  publish(now: number): Promise<void> {
    const run = this.queue.then(() => this.publishNow(now));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async publishNow(now: number): Promise<void> {
    await this.load();
    const oldest = now - this.retentionMs;
    const stations: StationSummary[] = [];
    for (const [id, entry] of this.entries) {
      for (const time of entry.observations.keys()) {
        if (time < oldest) {
          entry.observations.delete(time);
          entry.changed = true;
        }
      }
      if (entry.observations.size === 0) {
        this.entries.delete(id);
        continue;
      }
      const history = this.history(id)!;
      if (entry.changed) await this.store.writeJson('stations', historyFile(id), history);
      entry.changed = false;
      stations.push({ ...entry.station, latest: history.observations.at(-1) ?? null });
    }
    stations.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await this.store.writeJson('stations', STATIONS_DOCUMENT, { updated: now, stations } satisfies StationsDocument);
    await this.removeUnlisted(new Set(stations.map((s) => s.id)), now);
  }

  /** Removes the files of stations that left the list at least REMOVE_GRACE_MS ago. */
  private async removeUnlisted(listed: ReadonlySet<string>, now: number): Promise<void> {
    const names = await this.store.list('stations', 'history');
    for (const name of names) {
      const id = name.replace(/\.json$/, '');
      if (listed.has(id)) {
        this.leftAt.delete(id);
        continue;
      }
      const left = this.leftAt.get(id);
      if (left === undefined) this.leftAt.set(id, now);
      else if (now - left >= REMOVE_GRACE_MS) {
        await this.store.remove('stations', historyFile(id));
        this.leftAt.delete(id);
      }
    }
  }
}

const histories = new Map<string, StationHistoryStore>();

/** The one station history of a data directory (ObsStore.root), shared by every station source. */
export function stationHistoryFor(store: ObsStore): StationHistoryStore {
  let history = histories.get(store.root);
  if (!history) {
    history = new StationHistoryStore(store);
    histories.set(store.root, history);
  }
  return history;
}
