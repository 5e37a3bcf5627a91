/**
 * An in-memory index of places (cities and airports) for the location search and reverse
 * geocoding (server/routes/geo.ts).
 *
 *   names   every place's folded name (fold.ts) and its names in other languages (aliases) as
 *           primary keys; GeoNames' alternate names as alternate keys; each later word of the name
 *           ("york" of "new york") and each other name (an airport's town, its keywords) with its
 *           later words as a secondary key; all keys in one sorted array, so a prefix is a binary
 *           search and a scan of the run of keys that start with it
 *   codes   airports by ICAO and IATA code
 *   grid    places by 1° cell, for the nearest place within a radius
 *
 * Ranking (common/api/search.ts): tier first — 0 an exact name, alternate name or airport code, 1 a
 * name or alternate name that starts with the query (or an exact other name), 2 a later word or
 * other name that starts with it — then the place's size (log10 of the population; airports by
 * kind), less ALTERNATE_PENALTY where only an alternate name matched, plus a bonus for nearness to
 * where the client's map is.
 */

import { foldName } from './fold.ts';

export interface Place {
  kind: 'city' | 'airport' | 'station';
  name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  cc: string;
  region?: string;
  lat: number;
  lon: number;
  population: number;
  /** Size on the log10-of-population scale: what the ranking compares. */
  weight: number;
  /** A section of a bigger place (GeoNames PPLX): a suburb for reverse geocoding, found by search too. */
  section?: boolean;
  icao?: string;
  iata?: string;
  /** Large airports' IATA codes rank as an exact name; other airports' as a name prefix. */
  majorAirport?: boolean;
  /** Other names: matched as secondary keys. */
  otherNames?: readonly string[];
  /** A weather station's id (kind station). */
  stationId?: string;
  /** The place's name in the app's languages ("Praha", "Wien": CLDR): matched as the name itself is. */
  aliases?: readonly string[];
  /**
   * A GeoNames place's geonameid: the key its other names ("munchen" of Munich) are joined by
   * (gazetteer.ts threadedAlternates), added to the index by addAlternates.
   */
  geonameId?: number;
}

export interface Ranked {
  place: Place;
  tier: number;
  score: number;
}

export interface SearchOptions {
  limit: number;
  /** Where the client's map is: nearer places rank higher. */
  near?: { lat: number; lon: number };
}

/**
 * What a match by an alternate name only takes off the place's size (log10 of the population): a
 * name's prefix ranks above a 30x bigger place's alternate prefix ("pra": Prague above Pretoria,
 * "Pretoria" being "Praetoria" too), and a small place's own name above a bigger place's
 * alternate ("hof": Hof, Austria above Dvorce, Czechia, "Hof" in German).
 */
const ALTERNATE_PENALTY = 1.5;
/** What a key is to its place (keyKind). */
const PRIMARY = 0;
const ALTERNATE = 1;
const SECONDARY = 2;
const EARTH_RADIUS_KM = 6371;
/** Nearness adds up to this much weight (x100 in population) ... */
const PROXIMITY_WEIGHT = 2;
/** ... fading with distance on this scale. */
const PROXIMITY_KM = 300;
const CELL_DEG = 1;
const LAT_CELLS = 180 / CELL_DEG;
const LON_CELLS = 360 / CELL_DEG;

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const wrapLon = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

export class PlaceIndex {
  readonly places: readonly Place[];
  /** Sorted folded keys and, at the same index, the place and what the key is to it (PRIMARY ...). */
  private keys: string[];
  private keyPlace: Int32Array;
  private keyKind: Uint8Array;
  private readonly codes = new Map<string, number[]>();
  /** Place indexes grouped by grid cell (row-major, 1° cells from -90/-180): cell c holds
   *  cellItems[cellStart[c] .. cellStart[c + 1]). */
  private readonly cellStart: Int32Array;
  private readonly cellItems: Int32Array;
  /** Per-query scratch: the query that last touched a place, the place's best tier in it and
   *  whether that tier came of an alternate name only. */
  private readonly weights: Float64Array;
  private readonly stamp: Int32Array;
  private readonly bestTier: Uint8Array;
  private readonly bestByAlternate: Uint8Array;
  private query = 0;

  constructor(places: readonly Place[]) {
    this.places = places;
    const entries: { key: string; place: number; kind: number }[] = [];
    places.forEach((p, i) => {
      const name = foldName(p.name);
      const named = new Set([name]);
      if (name) entries.push({ key: name, place: i, kind: PRIMARY });
      for (const alias of (p.aliases ?? []).map(foldName)) {
        if (alias && !named.has(alias)) entries.push({ key: alias, place: i, kind: PRIMARY });
        named.add(alias);
      }
      const secondary = new Set<string>();
      const words = name.split(' ');
      for (let w = 1; w < words.length; w++) secondary.add(words.slice(w).join(' '));
      for (const other of p.otherNames ?? []) {
        const folded = foldName(other);
        if (!folded || folded === name) continue;
        secondary.add(folded);
        // and its later words: "Flughafen München Franz Josef Strauß" is found by "München"
        const otherWords = folded.split(' ');
        for (let w = 1; w < otherWords.length; w++) secondary.add(otherWords.slice(w).join(' '));
      }
      for (const key of secondary) entries.push({ key, place: i, kind: SECONDARY });
      for (const code of [p.icao, p.iata]) {
        if (!code) continue;
        const list = this.codes.get(code) ?? [];
        list.push(i);
        this.codes.set(code, list);
      }
    });
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.keys = entries.map((e) => e.key);
    this.keyPlace = Int32Array.from(entries, (e) => e.place);
    this.keyKind = Uint8Array.from(entries, (e) => e.kind);

    const cellOfPlace = Int32Array.from(places, (p) => this.cellOf(p.lat, p.lon));
    this.cellStart = new Int32Array(LAT_CELLS * LON_CELLS + 1);
    for (const c of cellOfPlace) this.cellStart[c + 1]++;
    for (let c = 0; c < LAT_CELLS * LON_CELLS; c++) this.cellStart[c + 1] += this.cellStart[c];
    this.cellItems = new Int32Array(places.length);
    const fill = this.cellStart.slice(0, -1);
    cellOfPlace.forEach((c, i) => (this.cellItems[fill[c]++] = i));
    this.weights = Float64Array.from(places, (p) => p.weight);
    this.stamp = new Int32Array(places.length);
    this.bestTier = new Uint8Array(places.length);
    this.bestByAlternate = new Uint8Array(places.length);
  }

  /**
   * Adds other names (GeoNames' alternates, already folded and sorted, each with its place's index:
   * geoNamesAlternates.ts alternateEntries), matched as the name is for a place ALTERNATE_PENALTY
   * smaller, by one merge of the two sorted lists: a fraction of a second, not the seconds of
   * building the index again.
   */
  addAlternates(keys: readonly string[], places: Int32Array): void {
    const n = this.keys.length + keys.length;
    const mergedKeys = new Array<string>(n);
    const mergedPlace = new Int32Array(n);
    const mergedKind = new Uint8Array(n);
    let a = 0;
    let b = 0;
    for (let k = 0; k < n; k++) {
      if (b >= keys.length || (a < this.keys.length && this.keys[a] <= keys[b])) {
        mergedKeys[k] = this.keys[a];
        mergedPlace[k] = this.keyPlace[a];
        mergedKind[k] = this.keyKind[a++];
      } else {
        mergedKeys[k] = keys[b];
        mergedPlace[k] = places[b++];
        mergedKind[k] = ALTERNATE;
      }
    }
    this.keys = mergedKeys;
    this.keyPlace = mergedPlace;
    this.keyKind = mergedKind;
  }

  get size(): number {
    return this.places.length;
  }

  private cellOf(lat: number, lon: number): number {
    const row = Math.min(LAT_CELLS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEG)));
    const col = Math.min(LON_CELLS - 1, Math.max(0, Math.floor((wrapLon(lon) + 180) / CELL_DEG)));
    return row * LON_CELLS + col;
  }

  /** The first key not less than `prefix`. */
  private lowerBound(prefix: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  search(text: string, options: SearchOptions): Ranked[] {
    const q = foldName(text);
    if (!q || options.limit <= 0) return [];
    const id = ++this.query;
    const touched: number[] = [];
    const offer = (place: number, tier: number, byAlternate = 0) => {
      if (this.stamp[place] !== id) {
        this.stamp[place] = id;
        touched.push(place);
      } else if (tier > this.bestTier[place] || (tier === this.bestTier[place] && byAlternate >= this.bestByAlternate[place])) {
        return;
      }
      this.bestTier[place] = tier;
      this.bestByAlternate[place] = byAlternate;
    };

    const code = text.trim().toUpperCase();
    if (/^[A-Z0-9]{3,4}$/.test(code)) {
      for (const i of this.codes.get(code) ?? []) {
        const p = this.places[i];
        offer(i, p.icao === code || p.majorAirport ? 0 : 1);
      }
    }
    // In the sorted keys, those equal to q come first (up to the first >= q + U+0000), then the
    // longer ones that start with q (up to the first >= q + U+FFFF).
    const start = this.lowerBound(q);
    const exactEnd = this.lowerBound(`${q}\u0000`);
    const end = this.lowerBound(`${q}\uffff`);
    for (let k = start; k < end; k++) {
      const exact = k < exactEnd;
      const kind = this.keyKind[k];
      if (kind === SECONDARY) offer(this.keyPlace[k], exact ? 1 : 2);
      else offer(this.keyPlace[k], exact ? 0 : 1, kind === ALTERNATE ? 1 : 0);
    }

    // The best `limit` of the touched places, kept sorted (limit is small: insertion is cheapest).
    const best: Ranked[] = [];
    const near = options.near;
    for (const i of touched) {
      const tier = this.bestTier[i];
      const weight = this.weights[i] - (this.bestByAlternate[i] ? ALTERNATE_PENALTY : 0);
      const full = best.length === options.limit;
      const worst = best[best.length - 1];
      // Most candidates of a short prefix are villages that cannot make the list: skip them
      // before touching the place or its distance (flat arrays: a short prefix has 30 000).
      if (full && (tier > worst.tier || (tier === worst.tier && weight + (near ? PROXIMITY_WEIGHT : 0) <= worst.score))) continue;
      const place = this.places[i];
      let score = weight;
      if (near) score += PROXIMITY_WEIGHT * Math.exp(-distanceKm(near.lat, near.lon, place.lat, place.lon) / PROXIMITY_KM);
      if (full) {
        if (tier === worst.tier && score <= worst.score) continue;
        best.pop();
      }
      let at = best.length;
      while (at > 0 && (best[at - 1].tier > tier || (best[at - 1].tier === tier && best[at - 1].score < score))) at--;
      best.splice(at, 0, { place, tier, score });
    }
    return best;
  }

  /**
   * The nearest place within radiusKm that passes the filter, or null. Cells are visited in the
   * box that holds the radius; near the poles that box spans every longitude.
   */
  nearest(lat: number, lon: number, radiusKm: number, accept: (p: Place) => boolean = () => true): { place: Place; km: number } | null {
    const dLat = radiusKm / 111.2;
    const cosLat = Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180);
    const dLon = Math.min(180, radiusKm / (111.2 * Math.max(cosLat, 1e-6)));
    const row0 = Math.max(0, Math.floor((lat - dLat + 90) / CELL_DEG));
    const row1 = Math.min(LAT_CELLS - 1, Math.floor((lat + dLat + 90) / CELL_DEG));
    const colSpan = Math.ceil(dLon / CELL_DEG);
    const col = Math.floor((wrapLon(lon) + 180) / CELL_DEG);
    let found: Place | null = null;
    let foundKm = radiusKm;
    for (let row = row0; row <= row1; row++) {
      const cols = Math.min(LON_CELLS, 2 * colSpan + 1);
      for (let c = 0; c < cols; c++) {
        const cell = row * LON_CELLS + ((((col - colSpan + c) % LON_CELLS) + LON_CELLS) % LON_CELLS);
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const p = this.places[this.cellItems[k]];
          const km = distanceKm(lat, lon, p.lat, p.lon);
          if (km <= foundKm && accept(p)) {
            found = p;
            foundKm = km;
          }
        }
      }
    }
    return found ? { place: found, km: foundKm } : null;
  }
}
