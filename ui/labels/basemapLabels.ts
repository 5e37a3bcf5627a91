/**
 * Place names of the tile base maps (issue 14 §3; SPEC §2 outdoor, winter, satellite): the render
 * worker decodes the `places` layer of the vector tiles it draws (Protomaps basemap schema: name,
 * name:{lang}, kind, population_rank, min_zoom) and sends the places of the tiles in view
 * (workers/layers/basemap/tileBasemap.ts); this module draws them as DOM text over the canvas in
 * the user's language (name:{lang}, else the local name), on the shared collision plane
 * (collisionPlane.ts) below the city and isoline labels: wholly in view, clear of the map's
 * controls, of the labels ranked above and of each other, highest population rank first. A place a
 * city label already names is not named again. The globe draws no tile base map, so no names.
 */

import { effect } from '@preact/signals-core';
import { lonLatToScreen, mercX, mercY, worldSize, type View } from '../../common/map.ts';
import type { BasemapPlace } from '../../workers/api.ts';
import type { AppState } from '../state/appState.ts';
import { mapElement } from '../map/mapCanvas.ts';
import { basemapPlaces } from '../map/renderClient.ts';
import { boxesOverlap, labelPlane, type LabelBox } from './collisionPlane.ts';
import { labelFits, watchObstacles, type Box } from './labelObstacles.ts';
import './basemapLabels.css';

/** basemapLabels.css: a name's line height and font per kind, and the text's padding, CSS px. */
const LABEL_HEIGHT_PX = 14;
const LABEL_PADDING_PX = 4;
const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
/** Width of a character where no canvas measures text, CSS px (the 12 px font's average). */
const CHAR_WIDTH_PX = 7;
/** Room kept between two names, CSS px. */
const LABEL_GAP_PX = 8;
/** Most names drawn at once. */
const MAX_DRAWN = 120;

/** The CSS class of a place's kind (Protomaps kinds), and its font for measuring. */
export function labelClass(kind: string): 'country' | 'region' | 'locality' | 'minor' {
  if (kind === 'country') return 'country';
  if (kind === 'region') return 'region';
  if (kind === 'locality') return 'locality';
  return 'minor';
}
const FONTS: Record<ReturnType<typeof labelClass>, string> = {
  country: '700 13px',
  region: '600 11px',
  locality: '600 12px',
  minor: '500 11px',
};
/** Kinds whose names are written in capitals (basemapLabels.css text-transform). */
const UPPERCASE = new Set(['country', 'region']);

export interface PlacedName {
  place: BasemapPlace;
  /** Centre on screen, CSS px. */
  x: number;
  y: number;
  box: Box;
}

export interface NamePlacement {
  view: View;
  /** A name's drawn width, CSS px. */
  width(place: BasemapPlace): number;
  /** Whether a box (screen px) lies wholly in view clear of the controls. */
  fits(x: number, y: number, width: number, height: number): boolean;
  /** Whether a box (screen px) touches a label ranked above (collision plane). */
  blocked(box: Box): boolean;
  /** Whether a label ranked above names this place already. */
  named(place: BasemapPlace): boolean;
}

/**
 * Which names are drawn and where: from the view's zoom on (the place's min_zoom), highest rank
 * first, each clear of the others and of what `blocked` and `named` say, at most MAX_DRAWN.
 */
export function placeNames(places: readonly BasemapPlace[], p: NamePlacement): PlacedName[] {
  const out: PlacedName[] = [];
  const ordered = [...places].sort((a, b) => b.rank - a.rank);
  for (const place of ordered) {
    if (out.length >= MAX_DRAWN) break;
    if (place.minZoom > p.view.zoom) continue;
    const { x, y } = lonLatToScreen(p.view, place.lon, place.lat);
    const width = p.width(place);
    if (!p.fits(x, y, width, LABEL_HEIGHT_PX)) continue;
    const box = { left: x - width / 2, top: y - LABEL_HEIGHT_PX / 2, right: x + width / 2, bottom: y + LABEL_HEIGHT_PX / 2 };
    if (p.blocked(box) || p.named(place)) continue;
    const spaced = { left: box.left - LABEL_GAP_PX, top: box.top - LABEL_GAP_PX, right: box.right + LABEL_GAP_PX, bottom: box.bottom + LABEL_GAP_PX };
    if (out.some((o) => boxesOverlap(o.box, spaced))) continue;
    out.push({ place, x, y, box });
  }
  return out;
}

export interface BasemapLabelsLayer {
  dispose(): void;
}

export function startBasemapLabels(app: AppState): BasemapLabelsLayer {
  const host = mapElement();
  const layer = document.createElement('div');
  layer.className = 'basemap-labels';
  layer.dataset.testid = 'basemap-labels';
  host.appendChild(layer);
  const pool: HTMLElement[] = [];
  let frame = 0;
  let disposed = false;
  const schedule = () => {
    if (!frame && !disposed) frame = requestAnimationFrame(draw);
  };
  const obstacles = watchObstacles(document.getElementById('root') ?? document.body, host, schedule);
  const context = document.createElement('canvas').getContext('2d');
  const widths = new Map<string, number>();
  const width = (place: BasemapPlace): number => {
    const cls = labelClass(place.kind);
    const text = UPPERCASE.has(cls) ? place.name.toLocaleUpperCase() : place.name;
    const key = `${cls}|${text}`;
    let w = widths.get(key);
    if (w === undefined) {
      if (context) {
        context.font = `${FONTS[cls]} ${FONT_FAMILY}`;
        w = Math.ceil(context.measureText(text).width) + LABEL_PADDING_PX;
      } else {
        w = [...text].length * CHAR_WIDTH_PX + LABEL_PADDING_PX;
      }
      widths.set(key, w);
    }
    return w;
  };

  function draw() {
    frame = 0;
    const view = app.map.view.peek();
    const places = view.globe ? [] : basemapPlaces.peek();
    const covered = obstacles.boxes();
    const size = worldSize(view.zoom);
    const left = mercX(view.lon) * size - view.width / 2;
    const top = mercY(view.lat) * size - view.height / 2;
    const onPlane = (b: Box): Box => ({ left: b.left + left, top: b.top + top, right: b.right + left, bottom: b.bottom + top });
    const placed = placeNames(places, {
      view,
      width,
      fits: (x, y, w, h) => labelFits(x, y, w, h, view, covered),
      blocked: (box) => labelPlane.blocked('basemap', view.zoom, onPlane(box)),
      named: (place) => labelPlane.named('basemap', [place.name, place.localName], place.lon, place.lat),
    });
    const world: LabelBox[] = [];
    placed.forEach(({ place, x, y, box }, i) => {
      let el = pool[i];
      if (!el) {
        el = document.createElement('span');
        el.dataset.testid = 'basemap-label';
        pool.push(el);
        layer.appendChild(el);
      }
      el.hidden = false;
      el.className = `basemap-label basemap-label-${labelClass(place.kind)}`;
      if (el.textContent !== place.name) el.textContent = place.name;
      el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px) translate(-50%, -50%)`;
      world.push({ ...onPlane(box), place: { name: place.name, lon: place.lon, lat: place.lat } });
    });
    for (let i = placed.length; i < pool.length; i++) pool[i].hidden = true;
    labelPlane.publish('basemap', view.zoom, world);
  }

  const stops = [
    effect(() => {
      void basemapPlaces.value;
      schedule();
    }),
    effect(() => {
      void app.map.view.value;
      schedule();
    }),
    labelPlane.subscribe((kind) => {
      if (kind !== 'basemap') schedule();
    }),
  ];
  return {
    dispose() {
      disposed = true;
      if (frame) cancelAnimationFrame(frame);
      stops.forEach((stop) => stop());
      obstacles.dispose();
      layer.remove();
    },
  };
}
