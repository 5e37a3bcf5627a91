/**
 * The storm sources (issue 15 §4), each an ObsSource of kind `storms` (server/obs/core):
 *
 * - `nhc`: NHC's active storms (CurrentStorms.json), each storm's best track from the ATCF b-deck
 *   (`{ftp}/atcf/btk/b{id}.dat`) and its track forecast from the latest forecast/advisory (TCM),
 *   with the cone swept along it. Keyless, followed by default.
 * - `jtwc`: JTWC's b-decks from a directory listing (ISOBAR_JTWC_URL, the ATCF `btk` layout of
 *   `b{basin}{nn}{yyyy}.dat` files); JTWC publishes no forecast cone radii, so no cone.
 * - `ibtracs`: past storms of the current season from IBTrACS (NCEI), daily.
 * - `atcfDecks`: b-decks in a local folder the operator names (ISOBAR_STORM_DECKS_DIR; not followed
 *   unless ISOBAR_OBS lists it): past storms such as the samples' (Hurricane Michael,
 *   `bal142018.dat`, shown with the GFS sample of October 2018 when that file is there).
 *
 * Upstream files that cannot be read are refused whole (ObsDataError naming file and line); the
 * storms already published keep serving.
 */

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOUR_MS } from '../../../common/time.ts';
import type { StormDetail } from '../../../common/api/storms.ts';
import type { ObsFactory } from '../core/config.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { AtcfFormatError, parseAtcf } from './atcf.ts';
import { IbtracsFormatError, parseIbtracs } from './ibtracs.ts';
import { NhcFormatError, parseCurrentStorms, parseForecastAdvisory } from './nhc.ts';
import { publishStorms } from './publish.ts';
import { forecastFromAdvisory, stormFromBestTrack, stormsFromIbtracs } from './storms.ts';

/** NHC writes advisories every 6 hours with intermediate ones every 2-3: half an hour catches each. */
export const NHC_INTERVAL_MINUTES = 30;
/** JTWC's best-track decks follow its 6-hourly warnings. */
export const JTWC_INTERVAL_MINUTES = 60;
/** IBTrACS's ACTIVE file is rebuilt about weekly; once a day is plenty. */
export const IBTRACS_INTERVAL_MINUTES = 24 * 60;

export const NHC_URL = 'https://www.nhc.noaa.gov';
export const NHC_FTP_URL = 'https://ftp.nhc.noaa.gov';
export const IBTRACS_URL = 'https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.ACTIVE.list.v04r01.csv';

const NHC_ATTRIBUTION = 'NOAA National Hurricane Center (public domain)';
const JTWC_ATTRIBUTION = 'Joint Typhoon Warning Center / US Navy (public)';
const IBTRACS_ATTRIBUTION = 'IBTrACS v04, NOAA NCEI (Knapp et al. 2010, public domain)';

function refuse(source: string, what: string, error: unknown): never {
  if (error instanceof AtcfFormatError || error instanceof NhcFormatError || error instanceof IbtracsFormatError) throw new ObsDataError(source, what, error.message);
  throw error;
}

async function required(ctx: ObsContext, source: string, url: string): Promise<string> {
  const text = await ctx.http.text(url, ctx.signal);
  if (text === null) throw new ObsDataError(source, url, 'not found upstream');
  return text;
}

/** The text of an NHC product page: the `<pre>` of the .shtml, or the text itself. */
export function productText(page: string): string {
  const pre = /<pre[^>]*>([\s\S]*?)<\/pre>/i.exec(page);
  const text = pre ? pre[1] : page;
  return text.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

export function nhcSource(options: { url?: string; ftpUrl?: string } = {}): ObsSource {
  const base = (options.url ?? NHC_URL).replace(/\/$/, '');
  const ftp = (options.ftpUrl ?? NHC_FTP_URL).replace(/\/$/, '');
  return {
    id: 'nhc', kind: 'storms', label: 'NHC', attribution: NHC_ATTRIBUTION, intervalMinutes: NHC_INTERVAL_MINUTES,
    async poll(ctx) {
      const listUrl = `${base}/CurrentStorms.json`;
      let active;
      try {
        active = parseCurrentStorms(await required(ctx, 'nhc', listUrl));
      } catch (e) {
        refuse('nhc', listUrl, e);
      }
      const storms: StormDetail[] = [];
      for (const s of active) {
        const deckUrl = `${ftp}/atcf/btk/b${s.id}.dat`;
        let records;
        try {
          records = parseAtcf(await required(ctx, 'nhc', deckUrl));
        } catch (e) {
          refuse('nhc', deckUrl, e);
        }
        let forecast = null;
        if (s.forecastAdvisoryUrl) {
          // The JSON names www.nhc.noaa.gov; a configured mirror serves the same paths.
          const url = s.forecastAdvisoryUrl.replace(/^https?:\/\/www\.nhc\.noaa\.gov/, base);
          try {
            const advisory = parseForecastAdvisory(productText(await required(ctx, 'nhc', url)));
            if (advisory.id !== s.id) throw new ObsDataError('nhc', url, `advisory of ${advisory.id}, not ${s.id}`);
            forecast = forecastFromAdvisory(advisory);
          } catch (e) {
            refuse('nhc', url, e);
          }
        }
        const storm = stormFromBestTrack(records, 'nhc', ctx.now(), forecast, NHC_ATTRIBUTION);
        // NHC lists it as active: it is, whatever the age of the deck's last fix.
        storms.push({ ...storm, storm: { ...storm.storm, active: true, name: storm.storm.name || s.name.toUpperCase() } });
      }
      await publishStorms(ctx.store, 'nhc', storms, ctx.now());
    },
  };
}

/** The b-deck files of an autoindex listing (`<a href="bwp192014.dat">`). */
export function deckNames(listing: string): string[] {
  return [...new Set([...listing.matchAll(/href="(b(?:al|ep|cp|wp|io|sh)\d{6}\.dat)"/gi)].map((m) => m[1]))];
}

export function jtwcSource(options: { url?: string } = {}): ObsSource {
  const base = options.url ? options.url.replace(/\/?$/, '/') : null;
  return {
    id: 'jtwc', kind: 'storms', label: 'JTWC', attribution: JTWC_ATTRIBUTION, intervalMinutes: JTWC_INTERVAL_MINUTES,
    unsupportedReason: base ? undefined : 'ISOBAR_JTWC_URL (a directory listing of JTWC b-decks) is not set',
    async poll(ctx) {
      if (!base) return;
      const names = deckNames(await required(ctx, 'jtwc', base));
      const storms: StormDetail[] = [];
      for (const name of names) {
        try {
          storms.push(stormFromBestTrack(parseAtcf(await required(ctx, 'jtwc', base + name)), 'jtwc', ctx.now(), null, JTWC_ATTRIBUTION));
        } catch (e) {
          refuse('jtwc', base + name, e);
        }
      }
      await publishStorms(ctx.store, 'jtwc', storms, ctx.now());
    },
  };
}

export function ibtracsSource(options: { url?: string } = {}): ObsSource {
  const url = options.url ?? IBTRACS_URL;
  return {
    id: 'ibtracs', kind: 'storms', label: 'IBTrACS', attribution: IBTRACS_ATTRIBUTION, intervalMinutes: IBTRACS_INTERVAL_MINUTES,
    async poll(ctx) {
      let rows;
      try {
        rows = parseIbtracs(await required(ctx, 'ibtracs', url));
      } catch (e) {
        refuse('ibtracs', url, e);
      }
      // The season: this year's storms (and, early in the year, the southern season begun last July).
      const year = new Date(ctx.now()).getUTCFullYear();
      const season = rows.filter((r) => r.season === year || r.time >= ctx.now() - 180 * 24 * HOUR_MS);
      await publishStorms(ctx.store, 'ibtracs', stormsFromIbtracs(season, ctx.now(), IBTRACS_ATTRIBUTION), ctx.now());
    },
  };
}

/** Best tracks from b-decks in a folder: NHC's basins as `nhc`, the others as `jtwc`. */
export function atcfFolderSource(options: { dir?: string } = {}): ObsSource {
  const dir = options.dir?.trim() ?? '';
  return {
    id: 'atcfDecks', kind: 'storms', label: 'ATCF best tracks', attribution: `${NHC_ATTRIBUTION}; ${JTWC_ATTRIBUTION}`, intervalMinutes: 60,
    ...(dir === '' ? { unsupportedReason: 'ISOBAR_STORM_DECKS_DIR is not set (a folder of ATCF b-deck files)' } : {}),
    async poll(ctx) {
      let names: string[] = [];
      try {
        names = (await readdir(dir)).filter((n) => /\.dat$/.test(n)).sort();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      const storms: StormDetail[] = [];
      for (const name of names) {
        storms.push(await deckStorm(join(dir, name), ctx.now()));
      }
      await publishStorms(ctx.store, 'decks', storms, ctx.now());
    },
  };
}

/** One b-deck file as a storm (NHC basins credited to NHC, others to JTWC). */
export async function deckStorm(path: string, now: number): Promise<StormDetail> {
  let records;
  try {
    records = parseAtcf(await readFile(path, 'utf8'));
  } catch (e) {
    refuse('atcfDecks', path, e);
  }
  const nhc = ['AL', 'EP', 'CP'].includes(records[0].basin);
  return stormFromBestTrack(records, nhc ? 'nhc' : 'jtwc', now, null, nhc ? NHC_ATTRIBUTION : JTWC_ATTRIBUTION);
}

/**
 * The storm sources (ISOBAR_OBS ids). `atcfDecks` reads a folder of b-decks the operator names
 * (ISOBAR_STORM_DECKS_DIR: a past storm such as Hurricane Michael's bal142018.dat), so it is never
 * followed by default.
 */
export const STORM_FACTORIES: Record<string, ObsFactory> = {
  nhc: { default: true, create: (env) => nhcSource({ url: env.ISOBAR_NHC_URL, ftpUrl: env.ISOBAR_NHC_FTP_URL }) },
  jtwc: { default: false, create: (env) => jtwcSource({ url: env.ISOBAR_JTWC_URL }) },
  ibtracs: { default: true, create: (env) => ibtracsSource({ url: env.ISOBAR_IBTRACS_URL }) },
  atcfDecks: { default: false, create: (env) => atcfFolderSource({ dir: env.ISOBAR_STORM_DECKS_DIR }) },
};
