/**
 * City labels on the map (SPEC §3 "City label", §9 zoom 3..11): each place's name and the shown
 * overlay's value there at the shown time, in the user's unit, from the label tiles and city tiles
 * of the server (common/labels.ts). Loaded lazily by App after the first paint.
 *
 * Plain DOM inside the map element, above the canvas and below the controls. Nothing here renders
 * through React: one requestAnimationFrame callback per changed view binds a pooled element to each
 * label in view, releases the ones that left it, and rewrites a label's value only when the time,
 * overlay, unit or data changed. The labels sit on one plane at their world pixel positions (from
 * an anchor taken at the current zoom), so a pan moves the plane with a single transform, composited
 * without touching the labels; only a zoom change places each label again.
 *
 * A tap on a label opens its point forecast; a drag that starts on a label pans the map as
 * anywhere else (the map's camera sees the press through the DOM; a tap is taken from it by
 * cancelling the press, so that the picker does not open under the label too).
 */

import i18next from 'i18next';
import { METRICS, formatValue } from '../../common/catalogue/metrics.ts';
import {
  LABEL_HEIGHT_PX, directionAt, hoursWindow, labelTilesInView, labelVariable, labelZoom, valueAt,
} from '../../common/labels.ts';
import { CITYTILE_ANSWER, cityTilePath, LABELS_ANSWER, LABELS_VERSION, labelsPath, type CityLabel, type CityTile, type LabelsTile } from '../../common/api/labels.ts';
import type { Infer, JsonSchema } from '../../common/api/schema.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import { lonLatToScreen, mercX, mercY, worldSize } from '../../common/map.ts';
import { hourStamp } from '../../common/minifest.ts';
import { pointPath } from '../../common/routes.ts';
import { effect } from '@preact/signals-core';
import type { AppState } from '../state/appState.ts';
import { mapElement } from '../map/mapCanvas.ts';
import { labelFits, watchObstacles } from './labelObstacles.ts';
import { labelPlane, type LabelBox } from './collisionPlane.ts';
import { globeLabelAt, globeLabelTiles } from './globeLabels.ts';
import './cityLabels.css';
import { HOUR_MS } from '../../common/time.ts';

/** Tiles are asked for this far around the view, CSS px (labels near an edge slide in already there). */
const TILE_MARGIN_PX = 96;
/** Requests in flight at once: the map's data tiles come first. */
const MAX_IN_FLIGHT = 4;
/** Tiles kept in memory, per kind. */
const CACHE_TILES = 600;
/** A failed tile is asked for again after this long. */
const RETRY_MS = 30_000;
/** While playing, the next day's values are asked for this many hours before they are shown. */
const PREFETCH_HOURS = 6;
/**
 * Work per frame: a pan into a new area or a new time touches many labels at once; each frame binds
 * and writes at most this many, and stops sooner once FRAME_WORK_MS of script has gone by (a slow
 * phone gets fewer per frame; style, layout and paint of what changed follow the script). The rest
 * follow in the next frames, so there is no long main-thread task.
 */
const NEW_LABELS_PER_FRAME = 24;
const VALUES_PER_FRAME = 60;
const FRAME_WORK_MS = 4;
/** The label font (cityLabels.css, with the page's font family): its name is measured to fit it in view. */
const LABEL_FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const NAME_FONT: Readonly<Record<CityLabel['type'], string>> = { capital: '700 13px', city: '600 12px', town: '500 12px' };
/** cityLabels.css: names wider than this are cut with an ellipsis; 3 px of padding each side. */
const NAME_MAX_PX = 150;
const LABEL_PADDING_PX = 6;
/** Room for the value line ("↓ 25 kt", "1013 hPa" in bold 13 px): a label is never narrower. */
const VALUE_WIDTH_PX = 60;
/** A tap: moved at most this far, released this soon (as the map's camera counts a click). */
const TAP_SLOP_PX = 5;
const TAP_MAX_MS = 500;

type Entry<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; at: number };

interface LabelNode {
  el: HTMLAnchorElement;
  name: HTMLSpanElement;
  value: HTMLSpanElement;
  label: CityLabel | null;
  tileKey: string;
  x: number;
  y: number;
  /**
   * valueVersion when the value was last written, the city tile entry it was written from (a tile
   * that arrives is a new entry: only its own labels are written again), and the series it shows.
   */
  version: number;
  entry: Entry<CityTile> | undefined;
  variable: string;
}

/** Keeps at most `max` entries, dropping the least recently used. */
class Lru<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly max: number) {}

  get(key: string): T | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: T): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }

  delete(key: string): void {
    this.map.delete(key);
  }
}

export interface CityLabelsLayer {
  /** Stops drawing and removes the labels. */
  dispose(): void;
}

export function startCityLabels(app: AppState): CityLabelsLayer {
  const host = mapElement();
  const layer = document.createElement('div');
  layer.className = 'city-labels';
  layer.dataset.testid = 'city-labels';
  const plane = document.createElement('div');
  plane.className = 'city-labels-plane';
  layer.appendChild(plane);
  host.appendChild(layer);
  /** World pixel of the plane's origin at `zoom`, and the plane's last transform. */
  const anchor = { zoom: NaN, x: 0, y: 0, ox: NaN, oy: NaN };

  const labelTiles = new Lru<Entry<LabelsTile>>(CACHE_TILES);
  const cityTiles = new Lru<Entry<CityTile>>(CACHE_TILES);
  const nodes = new Map<string, LabelNode>();
  const pool: LabelNode[] = [];
  const queue: { key: string; run: () => Promise<void>; drop: () => void }[] = [];
  let inFlight = 0;
  let frame = 0;
  let disposed = false;
  let valueVersion = 1;
  /** The zoom whose labels are on screen: kept while the labels of a new zoom load. */
  let shownZoom: number | null = null;
  /** Tile keys wanted by the last frame: queued requests no longer wanted are dropped. */
  let wanted = new Set<string>();

  const schedule = () => {
    if (!frame && !disposed) frame = requestAnimationFrame(draw);
  };
  // The controls over the map: a label is drawn only wholly in view and clear of them.
  const obstacles = watchObstacles(document.getElementById('root') ?? document.body, host, schedule);
  /**
   * A label's drawn width: its name measured in its font (a canvas measures text without a
   * layout), the value line's room at least. The server's estimate is for spacing labels apart;
   * this one decides whether a label is cut at an edge. Kept per label object (a tile's labels stay).
   */
  const context = document.createElement('canvas').getContext('2d');
  const widths = new WeakMap<CityLabel, number>();
  const drawnWidth = (label: CityLabel): number => {
    let width = widths.get(label);
    if (width === undefined) {
      let name = label.width;
      if (context) {
        context.font = `${NAME_FONT[label.type] ?? NAME_FONT.town} ${LABEL_FONT_FAMILY}`;
        name = Math.min(NAME_MAX_PX, Math.ceil(context.measureText(label.name).width));
      }
      width = Math.max(name, VALUE_WIDTH_PX) + LABEL_PADDING_PX;
      widths.set(label, width);
    }
    return width;
  };

  /**
   * Starts the next queued request. One per task: the fetch call itself costs a slow phone several
   * milliseconds of main thread (the request's setup), so starting four in one frame made one long
   * task of it; the next one starts in a task of its own.
   */
  const pump = () => {
    pumpQueued = false;
    while (inFlight < MAX_IN_FLIGHT && queue.length) {
      const job = queue.shift()!;
      if (!wanted.has(job.key)) {
        job.drop();
        continue;
      }
      inFlight++;
      void job.run().finally(() => {
        inFlight--;
        pumpSoon();
      });
      break;
    }
    if (inFlight < MAX_IN_FLIGHT && queue.length) pumpSoon();
  };
  let pumpQueued = false;
  const pumpSoon = () => {
    if (pumpQueued || disposed) return;
    pumpQueued = true;
    setTimeout(pump, 0);
  };

  /**
   * Starts loading a tile unless it is loaded, loading, or failed a short while ago. The address is
   * made only then: every frame asks again for every tile in view.
   */
  const request = <const S extends JsonSchema>(cache: Lru<Entry<Infer<S>>>, schema: S, key: string, url: () => string) => {
    const entry = cache.get(key);
    if (entry && (entry.state !== 'failed' || performance.now() - entry.at < RETRY_MS)) return;
    cache.set(key, { state: 'loading' });
    queue.push({
      key,
      drop: () => cache.delete(key),
      run: async () => {
        try {
          const data = await fetchAnswer(schema, url());
          cache.set(key, { state: 'ready', data });
        } catch {
          cache.set(key, { state: 'failed', at: performance.now() });
        }
        schedule();
      },
    });
  };

  const language = () => i18next.language || 'en';

  /** What the labels show now: the series, its metric and where its city tiles are. */
  const valueSource = () => {
    const spec = labelVariable(app.layer.overlay.peek(), app.layer.level.peek());
    const calendar = app.timeline.calendar.peek();
    const product = app.layer.product.peek();
    // A file opened in the browser is not on the server; a calendar still loading is another product's.
    if (!spec || !calendar || app.data.local.peek() || app.data.calendarProduct.peek() !== product) return null;
    const time = app.timeline.timestamp.peek();
    const hours = hoursWindow(calendar.refTime, time);
    const later = hoursWindow(calendar.refTime, time + PREFETCH_HOURS * HOUR_MS);
    const next = app.timeline.playing.peek() && later[0] !== hours[0] && later[0] <= (calendar.end - calendar.refTime) / HOUR_MS ? later : null;
    return { ...spec, product, time, refTime: calendar.refTime, hours, next };
  };

  /** The city tile of a label tile (key `z/x/y`) for the shown values. */
  const cityKey = (source: NonNullable<ReturnType<typeof valueSource>>, tileKey: string, hours = source.hours) =>
    `${source.product}/${source.refTime}/${tileKey}/${hours[0]}-${hours[1]}`;

  const acquire = (): LabelNode => {
    const pooled = pool.pop();
    if (pooled) return pooled;
    const el = document.createElement('a');
    el.className = 'city-label';
    el.dataset.testid = 'city-label';
    el.tabIndex = -1;
    el.draggable = false;
    const name = document.createElement('span');
    name.className = 'city-label-name';
    const value = document.createElement('span');
    value.className = 'city-label-value';
    el.append(name, value);
    return { el, name, value, label: null, tileKey: '', x: NaN, y: NaN, version: 0, entry: undefined, variable: '' };
  };

  const bind = (node: LabelNode, label: CityLabel, tileKey: string) => {
    node.label = label;
    node.tileKey = tileKey;
    node.version = 0;
    node.entry = undefined;
    node.variable = '';
    node.x = NaN;
    node.y = NaN;
    node.el.className = `city-label city-label-${label.type}`;
    node.el.href = pointPath(label.lat, label.lon);
    node.el.dataset.id = label.id;
    node.el.dataset.lat = String(label.lat);
    node.el.dataset.lon = String(label.lon);
    node.el.setAttribute('aria-label', i18next.t('cityLabels.open', { name: label.name }));
    node.name.textContent = label.name;
    plane.appendChild(node.el);
  };

  const release = (id: string, node: LabelNode) => {
    node.el.remove();
    node.label = null;
    nodes.delete(id);
    pool.push(node);
  };

  /** Writes the label's value from `entry`, its city tile for `source` (absent without one). */
  const writeValue = (node: LabelNode, source: ReturnType<typeof valueSource>, entry: Entry<CityTile> | undefined) => {
    node.version = valueVersion;
    node.entry = entry;
    const label = node.label!;
    let text = '';
    let base: number | null = null;
    let direction: number | null = null;
    if (source) {
      // The next day's values are on their way (playback): the shown value stays until they come.
      if (entry?.state === 'loading' && node.variable === source.variable) return;
      if (entry?.state === 'ready') {
        const series = entry.data.forecast[label.id];
        base = valueAt(entry.data, series?.[source.variable], source.time);
        if (base !== null) text = formatValue(METRICS[source.metric], app.units.unitOf(source.metric), base);
        if (base !== null && source.variable === 'wind') direction = directionAt(entry.data, series?.windDir, source.time);
      }
    }
    node.variable = text ? source!.variable : '';
    node.value.textContent = text;
    node.value.hidden = text === '';
    node.el.dataset.value = base === null ? '' : String(base);
    if (direction !== null) {
      const arrow = document.createElement('span');
      arrow.className = 'city-label-arrow';
      arrow.setAttribute('aria-hidden', 'true');
      arrow.textContent = '↓';
      arrow.style.transform = `rotate(${Math.round(direction)}deg)`;
      node.value.prepend(arrow);
    }
  };

  /** The label tiles of a zoom in view, requested where missing; whether all are in. */
  const tilesOf = (view: ReturnType<typeof app.map.view.peek>, z: number, source: ReturnType<typeof valueSource>) => {
    const tiles = view.globe ? globeLabelTiles(view, z) : labelTilesInView(view, z, TILE_MARGIN_PX);
    const query = source && { refTime: hourStamp(source.refTime), hours: source.hours, labelsVersion: LABELS_VERSION };
    let complete = true;
    const ready: { key: string; tile: LabelsTile }[] = [];
    const lang = language();
    for (const t of tiles) {
      const key = `${z}/${t.x}/${t.y}`;
      // Label tiles are named in the language (their places and ids are the same in every language).
      const labelKey = `${lang}/${key}`;
      wanted.add(labelKey);
      const entry = labelTiles.get(labelKey);
      if (entry?.state === 'ready') {
        ready.push({ key, tile: entry.data });
        if (source && query && entry.data.labels.length) {
          const ck = cityKey(source, key);
          wanted.add(ck);
          request(cityTiles, CITYTILE_ANSWER, ck, () => cityTilePath(source.product, z, t.x, t.y, query));
          if (source.next) {
            // Near the end of the day while playing: the next day's values, before they are needed.
            const nk = cityKey(source, key, source.next);
            wanted.add(nk);
            const hours = source.next;
            request(cityTiles, CITYTILE_ANSWER, nk, () => cityTilePath(source.product, z, t.x, t.y, { ...query, hours }));
          }
        }
      } else {
        if (entry?.state !== 'failed') complete = false;
        request(labelTiles, LABELS_ANSWER, labelKey, () => labelsPath(lang, z, t.x, t.y));
      }
    }
    return { ready, complete };
  };

  function draw() {
    frame = 0;
    const view = app.map.view.peek();
    const z = labelZoom(view.zoom);
    wanted = new Set();
    if (z === null) {
      shownZoom = null;
      for (const [id, node] of nodes) release(id, node);
      for (const job of queue.splice(0)) job.drop();
      return;
    }
    const source = valueSource();
    const current = tilesOf(view, z, source);
    let ready = current.ready;
    if (current.complete || shownZoom === null || Math.abs(shownZoom - z) > 1) {
      shownZoom = z;
    } else if (shownZoom !== z) {
      // The new zoom's labels are still loading: the old ones stay meanwhile.
      ready = tilesOf(view, shownZoom, source).ready;
    }
    const seen = new Set<string>();
    const { width, height } = view;
    // World pixels of the view's top-left corner; a new zoom takes a new anchor (every label moves).
    // On the globe every turn moves each label differently: the plane stays put, labels are placed on screen.
    const globe = !!view.globe;
    const size = worldSize(view.zoom);
    const left = globe ? 0 : mercX(view.lon) * size - width / 2;
    const top = globe ? 0 : mercY(view.lat) * size - height / 2;
    if (globe || anchor.zoom !== view.zoom) Object.assign(anchor, { zoom: globe ? NaN : view.zoom, x: left, y: top });
    const ox = Math.round(anchor.x - left);
    const oy = Math.round(anchor.y - top);
    if (ox !== anchor.ox || oy !== anchor.oy) {
      anchor.ox = ox;
      anchor.oy = oy;
      plane.style.transform = `translate3d(${ox}px, ${oy}px, 0)`;
    }
    let newBudget = NEW_LABELS_PER_FRAME;
    let valueBudget = VALUES_PER_FRAME;
    const deadline = performance.now() + FRAME_WORK_MS;
    /** Whether this frame may still bind or write one more label (always one at least). */
    const inTime = (budget: number, full: number) => budget > 0 && (budget === full || performance.now() < deadline);
    let more = false;
    const covered = obstacles.boxes();
    /** The drawn labels' boxes in world pixels: other labels keep clear of them (collisionPlane.ts). */
    const drawn: LabelBox[] = [];
    for (const { key, tile } of ready) {
      const cityEntry = source ? cityTiles.get(cityKey(source, key)) : undefined;
      for (const label of tile.labels) {
        const at = globe ? globeLabelAt(view, label.lon, label.lat) : lonLatToScreen(view, label.lon, label.lat);
        if (!at) continue;
        const { x, y } = at;
        // Wholly in view and under no control: never cut at an edge, never under the top bar or the timeline.
        if (!labelFits(x, y, drawnWidth(label), LABEL_HEIGHT_PX, view, covered)) continue;
        seen.add(label.id);
        const half = drawnWidth(label) / 2;
        drawn.push({
          left: x + left - half, top: y + top - LABEL_HEIGHT_PX / 2, right: x + left + half, bottom: y + top + LABEL_HEIGHT_PX / 2,
          place: { name: label.name, lon: label.lon, lat: label.lat },
        });
        let node = nodes.get(label.id);
        if (!node) {
          if (!inTime(newBudget, NEW_LABELS_PER_FRAME)) {
            newBudget = 0;
            more = true;
            continue;
          }
          newBudget--;
          node = acquire();
          bind(node, label, key);
          nodes.set(label.id, node);
        } else if (node.tileKey !== key) {
          // The same place in the new zoom's tile: its values come from that tile's city tile.
          node.tileKey = key;
          node.version = 0;
        }
        if (node.version !== valueVersion || node.entry !== cityEntry) {
          if (inTime(valueBudget, VALUES_PER_FRAME)) {
            valueBudget--;
            writeValue(node, source, cityEntry);
          } else {
            valueBudget = 0;
            more = true;
          }
        }
        // On the plane: the world pixel from the anchor (unchanged by a pan).
        const rx = Math.round(x + left - anchor.x);
        const ry = Math.round(y + top - anchor.y);
        if (rx !== node.x || ry !== node.y) {
          node.x = rx;
          node.y = ry;
          // A 2D translate: the labels paint into the plane's one layer, not a composited layer each.
          node.el.style.transform = `translate(${rx}px, ${ry}px) translate(-50%, -50%)`;
        }
      }
    }
    for (const [id, node] of nodes) if (!seen.has(id)) release(id, node);
    labelPlane.publish('cities', view.zoom, drawn);
    if (more) schedule();
    pumpSoon();
  }

  // ---- input: a tap on a label opens its forecast ---------------------------------------------
  let press: { pointerId: number; x: number; y: number; t: number; label: CityLabel } | null = null;
  const labelOf = (target: EventTarget | null): CityLabel | null => {
    const el = target instanceof Element ? target.closest('.city-label') : null;
    if (!el || !layer.contains(el)) return null;
    const id = (el as HTMLElement).dataset.id;
    return (id && nodes.get(id)?.label) || null;
  };
  const open = (label: CityLabel) => void app.router.navigate(pointPath(label.lat, label.lon));
  const onPointerDown = (e: PointerEvent) => {
    const label = labelOf(e.target);
    // A second finger makes it a pinch; a right or middle button is not a tap (a right-click on a
    // label opens the map's context menu only).
    press = label && !press && e.isPrimary && e.button === 0 ? { pointerId: e.pointerId, x: e.clientX, y: e.clientY, t: performance.now(), label } : null;
  };
  const onPointerUp = (e: PointerEvent) => {
    const p = press;
    if (!p || e.pointerId !== p.pointerId) return;
    press = null;
    if (Math.hypot(e.clientX - p.x, e.clientY - p.y) > TAP_SLOP_PX || performance.now() - p.t > TAP_MAX_MS) return;
    // The map's camera would take this as a click on the map: it gets a cancelled press instead.
    e.stopPropagation();
    host.dispatchEvent(new PointerEvent('pointercancel', { pointerId: e.pointerId, pointerType: e.pointerType, isPrimary: true, bubbles: true }));
    open(p.label);
  };
  const onClick = (e: MouseEvent) => {
    const label = labelOf(e.target);
    if (!label) return;
    // The link's address is for the status bar and "open in new tab"; the app navigates itself.
    e.preventDefault();
    if (e.detail === 0) open(label); // keyboard activation (a pointer tap was taken at pointerup)
  };
  window.addEventListener('pointerdown', onPointerDown, true);
  window.addEventListener('pointerup', onPointerUp, true);
  window.addEventListener('pointercancel', onPointerUp, true);
  layer.addEventListener('click', onClick);

  // ---- what makes labels move or change --------------------------------------------------------
  const stopView = effect(() => {
    void app.map.view.value;
    schedule();
  });
  const stopValues = effect(() => {
    void app.timeline.timestamp.value;
    void app.timeline.calendar.value;
    void app.layer.overlay.value;
    void app.layer.level.value;
    void app.layer.product.value;
    void app.data.calendarProduct.value;
    void app.data.local.value;
    void app.units.units.value;
    valueVersion++;
    schedule();
  });
  const onLanguage = () => {
    // Names and the labels' accessible names are the language's: the labels are bound again from its tiles.
    for (const [id, node] of nodes) release(id, node);
    schedule();
  };
  i18next.on('languageChanged', onLanguage);

  return {
    dispose() {
      disposed = true;
      if (frame) cancelAnimationFrame(frame);
      stopView();
      stopValues();
      obstacles.dispose();
      i18next.off('languageChanged', onLanguage);
      window.removeEventListener('pointerdown', onPointerDown, true);
      window.removeEventListener('pointerup', onPointerUp, true);
      window.removeEventListener('pointercancel', onPointerUp, true);
      layer.remove();
    },
  };
}
