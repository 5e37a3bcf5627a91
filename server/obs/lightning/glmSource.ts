/**
 * Lightning flashes of the last hour from the GOES Geostationary Lightning Mapper (issue 15 §3), read
 * from NOAA's open buckets on AWS (NOAA Open Data Dissemination):
 *   {bucket}/GLM-L2-LCFA/{year}/{day of year}/{hour}/OR_GLM-L2-LCFA_G{nn}_s{YYYYDDDHHMMSSt}_e..._c....nc
 * one file every 20 s, listed with S3 ListObjectsV2 (`?list-type=2&prefix=...`). Each poll lists
 * the hour folders the last hour touches, reads the files it has not read yet (readGlmFlashes), forgets
 * those older than the hour, and publishes the flashes of the hour before now as one flash file
 * (common/obs/flashes.ts) in an item folder, then the manifest `{id}.json` naming it.
 *
 * A file that does not read (GlmFormatError) is logged by name, left out and not fetched again; the
 * poll fails (ObsDataError, the last publication keeps serving) only when the upstream lists no file
 * at all for the hour or none of them reads.
 *
 * GOES-East has been GOES-19 since 7 April 2025 (bucket noaa-goes19; GOES-16 before, noaa-goes16,
 * the fixtures' satellite); GOES-West is GOES-18 (noaa-goes18). ISOBAR_GLM_URLS lists the buckets
 * (comma list of base URLs). With both, the eastern Pacific and the western Americas are seen twice:
 * a flash both saw is published once (mergeSatellites.ts) and the manifest counts those merged. The
 * default is GOES-East alone (half the files to fetch).
 */

import { encodeFlashes, FLASH_WINDOW_MS, type FlashesManifest } from '../../../common/obs/flashes.ts';
import { HOUR_MS, SECOND_MS } from '../../../common/time.ts';
import { listBucket } from '../core/s3Listing.ts';
import { REMOVE_GRACE_MS } from '../core/store.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { GlmFormatError, readGlmFlashes, type GlmFile } from './glm.ts';
import { mergeSatellites, type SatelliteFlash } from './mergeSatellites.ts';

export const GLM_DEFAULT_BUCKETS = ['https://noaa-goes19.s3.amazonaws.com'];
/** Length of one GLM L2 file (PUG vol. 3 §5.26: 20-second products). */
const GLM_FILE_MS = 20 * SECOND_MS;
const GLM_NAME = /^OR_GLM-L2-LCFA_G(\d\d)_s(\d{4})(\d{3})(\d\d)(\d\d)(\d\d)(\d)_e\d{14}_c\d{14}\.nc$/;

/** Start time of a GLM file from its name (s{year}{day of year}{hour}{minute}{second}{tenth}), or null. */
export function glmFileStart(name: string): number | null {
  const m = GLM_NAME.exec(name);
  if (!m) return null;
  const [year, day, hour, minute, second, tenth] = m.slice(2).map(Number);
  if (day < 1 || day > 366 || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, 0, day, hour, minute, second, tenth * 100);
}

/** The bucket prefix of the hour folder holding time t. */
export function glmHourPrefix(t: number): string {
  const d = new Date(t);
  const doy = Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / (24 * HOUR_MS)) + 1;
  return `GLM-L2-LCFA/${d.getUTCFullYear()}/${String(doy).padStart(3, '0')}/${String(d.getUTCHours()).padStart(2, '0')}/`;
}

interface ReadFile {
  start: number;
  glm: GlmFile;
}

export interface GlmSourceOptions {
  /** Bucket base URLs (no trailing slash). */
  buckets?: readonly string[];
  id?: string;
}

export class GlmSource implements ObsSource {
  readonly id: string;
  readonly kind = 'lightning' as const;
  readonly label = 'NOAA GOES Geostationary Lightning Mapper';
  readonly attribution = 'NOAA GOES-R GLM (public domain)';
  /** A GLM file comes every 20 s; a poll a minute keeps the map within about a minute of it. */
  readonly intervalMinutes = 1;
  private readonly buckets: readonly string[];
  /** Files read, by key (with bucket), and the names that did not read. */
  private readonly files = new Map<string, ReadFile>();
  private readonly refused = new Set<string>();
  private publishedStamp: string | null = null;
  /** Item names a manifest stopped naming, and when. */
  private readonly superseded = new Map<string, number>();

  constructor(options: GlmSourceOptions = {}) {
    this.buckets = (options.buckets ?? GLM_DEFAULT_BUCKETS).map((b) => b.replace(/\/+$/, ''));
    this.id = options.id ?? 'glm';
  }

  async poll(ctx: ObsContext): Promise<void> {
    const now = ctx.now();
    const from = now - FLASH_WINDOW_MS;
    const listed: { url: string; start: number; name: string }[] = [];
    for (const bucket of this.buckets) {
      for (let hour = Math.floor(from / HOUR_MS) * HOUR_MS; hour <= now; hour += HOUR_MS) {
        for (const key of await listBucket(ctx, this.id, bucket, glmHourPrefix(hour))) {
          const name = key.slice(key.lastIndexOf('/') + 1);
          const start = glmFileStart(name);
          if (start !== null && start + GLM_FILE_MS > from && start <= now) listed.push({ url: `${bucket}/${key}`, start, name });
        }
      }
    }
    if (listed.length === 0) throw new ObsDataError(this.id, glmHourPrefix(now), 'no GLM file in the last hour');

    for (const file of listed) {
      if (this.files.has(file.url) || this.refused.has(file.url)) continue;
      const bytes = await ctx.http.bytes(file.url, ctx.signal);
      if (bytes === null) continue; // listed, then gone: the next poll lists again
      try {
        this.files.set(file.url, { start: file.start, glm: await readGlmFlashes(bytes) });
      } catch (error) {
        if (!(error instanceof GlmFormatError)) throw error;
        this.refused.add(file.url);
        ctx.log.warn({ source: this.id, file: file.name, err: error.message }, 'GLM file refused');
      }
    }
    for (const [url, file] of this.files) if (file.start + GLM_FILE_MS <= from) this.files.delete(url);
    const keep = new Set(listed.map((f) => f.url));
    for (const url of this.refused) if (!keep.has(url)) this.refused.delete(url);
    if (this.files.size === 0) throw new ObsDataError(this.id, glmHourPrefix(now), `none of the ${listed.length} GLM files of the last hour could be read`);

    const newestFile = [...this.files.values()].reduce((a, b) => (b.start > a.start ? b : a));
    const stamp = new Date(newestFile.start).toISOString().replace(/[-:]/g, '').replace(/\.(\d)\d\dZ$/, '$1Z');
    if (stamp !== this.publishedStamp) await this.publish(ctx, from, now, stamp);
    await this.removeSuperseded(ctx, now, stamp);
  }

  private async publish(ctx: ObsContext, from: number, now: number, stamp: string): Promise<void> {
    const all: (SatelliteFlash & { energy: number; area: number })[] = [];
    for (const { glm } of this.files.values()) {
      for (let i = 0; i < glm.lat.length; i++) {
        if (glm.time[i] < from || glm.time[i] > now) continue;
        all.push({
          lon: glm.lon[i], lat: glm.lat[i], time: glm.time[i], energy: glm.energyJ[i] * 1e15, area: glm.areaKm2[i], quality: glm.quality[i],
          platform: glm.platform, view: glm.view,
        });
      }
    }
    const { kept: rows, merged } = mergeSatellites(all);
    rows.sort((a, b) => a.time - b.time);
    const baseTime = rows.length > 0 ? rows[rows.length - 1].time : now;
    const bytes = encodeFlashes({
      baseTime,
      lon: Float32Array.from(rows, (r) => r.lon),
      lat: Float32Array.from(rows, (r) => r.lat),
      ageSeconds: Float32Array.from(rows, (r) => (baseTime - r.time) / SECOND_MS),
      energyFj: Float32Array.from(rows, (r) => (Number.isFinite(r.energy) ? r.energy : 0)),
      areaKm2: Float32Array.from(rows, (r) => (Number.isFinite(r.area) ? r.area : 0)),
      quality: Uint8Array.from(rows, (r) => r.quality),
    });
    const item = `${this.id}/${stamp}`;
    await ctx.store.publishDir('lightning', item, async (dir) => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(`${dir}/flashes.bin`, bytes);
    });
    const manifest: FlashesManifest = {
      source: this.id, label: this.label, attribution: this.attribution,
      updated: new Date(now).toISOString(), newest: new Date(baseTime).toISOString(), flashes: rows.length, merged, file: `${item}/flashes.bin`,
    };
    await ctx.store.writeJson('lightning', `${this.id}.json`, manifest);
    this.publishedStamp = stamp;
  }

  private async removeSuperseded(ctx: ObsContext, now: number, stamp: string): Promise<void> {
    // Items no manifest names any more go REMOVE_GRACE_MS after they stopped being named (readers may
    // hold the old manifest); items found on disk after a restart count from the first publication.
    for (const name of await ctx.store.list('lightning', this.id)) {
      if (name === stamp) continue;
      const since = this.superseded.get(name) ?? now;
      this.superseded.set(name, since);
      if (now - since >= REMOVE_GRACE_MS) {
        await ctx.store.remove('lightning', `${this.id}/${name}`);
        this.superseded.delete(name);
      }
    }
  }
}
