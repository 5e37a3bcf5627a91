/**
 * GOES-East and GOES-West imagery from NOAA's open buckets on AWS (NOAA Open Data Dissemination),
 * the ABI L2 Cloud and Moisture Imagery of the full disk:
 *   {bucket}/{product}/{year}/{day of year}/{hour}/OR_{product}-M6[Cnn]_G{nn}_s{YYYYDDDHHMMSSt}_e..._c....nc
 * listed with S3 ListObjectsV2 (`?list-type=2&prefix=...`), a full disk every 10 minutes. Each poll
 * (SPEC §9: every 3 minutes) lists the current and previous hour, takes the newest scan not yet
 * published, reads band 13 (10.3 µm infrared) and band 2 (0.64 µm visible) and publishes the frame
 * (publish.ts). A file that does not read is an ObsDataError (the previous frames keep serving).
 *
 * Product: MCMIPF by default — one file with all sixteen bands on the 2 km grid, so the visible band
 * comes at the infrared's resolution (CMIPF's band 2 is a 21696 x 21696 grid at 0.5 km, about 0.9 GB
 * unpacked). With ISOBAR_GOES_PRODUCT=CMIPF the source reads the band 13 CMIPF file alone (infrared
 * by day and night).
 *
 * GOES-East is GOES-19 since 7 April 2025 (bucket noaa-goes19, 75.2° W); GOES-West GOES-18 (noaa-goes18,
 * 137.0° W). Variables: ISOBAR_GOES_EAST_URL, ISOBAR_GOES_WEST_URL (bucket base URLs, e.g. a mirror or
 * the fixture server), ISOBAR_GOES_PRODUCT (MCMIPF or CMIPF), ISOBAR_SATELLITE_MAX_ZOOM (highest data
 * zoom rendered, 0..5, default 5).
 */

import { DAY_MS, HOUR_MS } from '../../../common/time.ts';
import { SATELLITE_DATA_MAX_ZOOM, SATELLITE_UPDATE_MINUTES, type SatelliteInfo } from '../../../common/satellite.ts';
import type { ObsFactory } from '../core/config.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { listBucket } from '../core/s3Listing.ts';
import { readAbiCmi, readAbiCmiBands } from './abi.ts';
import { SatelliteFormatError } from './field.ts';
import { INFO, publishSatellite, satelliteFrameId } from './publish.ts';

export type GoesProduct = 'MCMIPF' | 'CMIPF';

export interface GoesSourceOptions {
  id: string;
  label: string;
  /** Bucket base URL (no trailing slash). */
  bucket: string;
  product: GoesProduct;
  maxZoom: number;
}

const NAME = /^OR_ABI-L2-(MCMIPF|CMIPF)-M\d(?:C(\d\d))?_G(\d\d)_s(\d{4})(\d{3})(\d\d)(\d\d)(\d\d)(\d)_e\d{14}_c\d{14}\.nc$/;

/** Product, band (CMIP) and scan start of an ABI L2 file name, or null. */
export function abiFileName(name: string): { product: GoesProduct; band: number | null; platform: string; start: number } | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [year, day, hour, minute, second, tenth] = m.slice(4).map(Number);
  if (day < 1 || day > 366 || hour > 23 || minute > 59 || second > 60) return null;
  return { product: m[1] as GoesProduct, band: m[2] ? Number(m[2]) : null, platform: `G${m[3]}`, start: Date.UTC(year, 0, 1) + (day - 1) * DAY_MS + hour * HOUR_MS + minute * 60_000 + second * 1000 + tenth * 100 };
}

/** The bucket prefix of the hour folder holding time t. */
export function abiHourPrefix(product: GoesProduct, t: number): string {
  const d = new Date(t);
  const doy = Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
  return `ABI-L2-${product}/${d.getUTCFullYear()}/${String(doy).padStart(3, '0')}/${String(d.getUTCHours()).padStart(2, '0')}/`;
}

export class GoesSource implements ObsSource {
  readonly id: string;
  readonly kind = 'satellite' as const;
  readonly label: string;
  readonly attribution = 'NOAA GOES-R ABI via NOAA Open Data Dissemination (public domain)';
  readonly intervalMinutes = SATELLITE_UPDATE_MINUTES;

  constructor(private readonly options: GoesSourceOptions) {
    this.id = options.id;
    this.label = options.label;
  }

  async poll(ctx: ObsContext): Promise<void> {
    const { bucket, product } = this.options;
    const now = ctx.now();
    const files: { key: string; start: number }[] = [];
    for (const hour of [now - HOUR_MS, now]) {
      for (const key of await listBucket(ctx, this.id, this.options.bucket, abiHourPrefix(product, hour))) {
        const parsed = abiFileName(key.slice(key.lastIndexOf('/') + 1));
        if (!parsed || parsed.product !== product || parsed.start > now) continue;
        if (product === 'CMIPF' && parsed.band !== 13) continue;
        files.push({ key, start: parsed.start });
      }
    }
    if (files.length === 0) throw new ObsDataError(this.id, abiHourPrefix(product, now), `no ${product} file in the last two hours`);
    const newest = files.reduce((a, b) => (b.start > a.start ? b : a));
    const info = await ctx.store.readJson<SatelliteInfo>('satellite', INFO);
    const id = satelliteFrameId(this.id, newest.start);
    if (info?.frames.some((f) => f.id === id)) return; // already published: nothing newer upstream
    const url = `${bucket}/${newest.key}`;
    const bytes = await ctx.http.bytes(url, ctx.signal);
    if (!bytes) throw new ObsDataError(this.id, url, 'listed but not found upstream');
    let scene;
    try {
      const [ir, visible] = product === 'MCMIPF' ? await readAbiCmiBands(bytes, [13, 2]) : [await readAbiCmi(bytes, 13), null];
      scene = { time: ir.time, ir, visible };
    } catch (error) {
      if (error instanceof SatelliteFormatError) throw new ObsDataError(this.id, url, `${error.name}: ${error.message}`);
      throw error;
    }
    await publishSatellite(ctx.store, {
      source: { id: this.id, label: this.label, attribution: this.attribution, lon0: scene.ir.grid.projection.params.lon0 },
      scene, now, maxZoom: this.options.maxZoom,
    });
    ctx.log.info({ source: this.id, file: newest.key }, 'satellite frame published');
  }
}

type Env = Record<string, string | undefined>;

export const GOES_EAST_BUCKET = 'https://noaa-goes19.s3.amazonaws.com';
export const GOES_WEST_BUCKET = 'https://noaa-goes18.s3.amazonaws.com';

function options(env: Env): Pick<GoesSourceOptions, 'product' | 'maxZoom'> {
  const product = (env.ISOBAR_GOES_PRODUCT?.trim() || 'MCMIPF').toUpperCase();
  if (product !== 'MCMIPF' && product !== 'CMIPF') throw new Error(`ISOBAR_GOES_PRODUCT must be MCMIPF or CMIPF, not ${product}`);
  const zoom = env.ISOBAR_SATELLITE_MAX_ZOOM?.trim();
  const maxZoom = zoom ? Number(zoom) : SATELLITE_DATA_MAX_ZOOM;
  if (!Number.isInteger(maxZoom) || maxZoom < 0 || maxZoom > SATELLITE_DATA_MAX_ZOOM) throw new Error(`ISOBAR_SATELLITE_MAX_ZOOM must be an integer 0..${SATELLITE_DATA_MAX_ZOOM}, not ${zoom}`);
  return { product, maxZoom };
}

/**
 * The satellite sources (ISOBAR_OBS ids): GOES-East and GOES-West, keyless but not followed by
 * default: every new full disk is a whole file to download and render, so a server names them.
 */
export const SATELLITE_FACTORIES: Record<string, ObsFactory> = {
  goesEast: {
    default: false,
    create: (env) => new GoesSource({ id: 'goesEast', label: 'GOES-East (NOAA)', bucket: (env.ISOBAR_GOES_EAST_URL?.trim() || GOES_EAST_BUCKET).replace(/\/+$/, ''), ...options(env) }),
  },
  goesWest: {
    default: false,
    create: (env) => new GoesSource({ id: 'goesWest', label: 'GOES-West (NOAA)', bucket: (env.ISOBAR_GOES_WEST_URL?.trim() || GOES_WEST_BUCKET).replace(/\/+$/, ''), ...options(env) }),
  },
};
