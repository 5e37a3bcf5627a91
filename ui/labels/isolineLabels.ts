/**
 * Isoline labels and H/L markers on the map (issue 14 §1): the render worker says where lines may
 * carry their value (upright, spaced along each line) and where the pressure highs and lows are
 * (workers/layers/isolines/isolineBuilder.ts); this module places them as DOM text over the
 * canvas, like the city labels: wholly in view, clear of the map's controls, of the city labels
 * (one collision plane, collisionPlane.ts) and of each other. Markers first, heavy lines' labels
 * next, then the rest.
 */

import { latFromMercY, lonFromMercX, lonLatToScreen, mercX, mercY, worldSize } from '../../common/map.ts';
import type { IsolineLabelPlace, IsolineMarker } from '../../workers/api.ts';
import { effect } from '@preact/signals-core';
import type { AppState } from '../state/appState.ts';
import { mapElement } from '../map/mapCanvas.ts';
import { isolineLabels } from '../map/renderClient.ts';
import { boxesOverlap, labelPlane } from './collisionPlane.ts';
import { labelFits, watchObstacles, type Box } from './labelObstacles.ts';
import { globeLabelAt } from './globeLabels.ts';
import './isolineLabels.css';

/** isolineLabels.css: a label's text height and a character's width, CSS px (for its box). */
const LABEL_HEIGHT_PX = 14;
const CHAR_WIDTH_PX = 7;
const LABEL_PADDING_PX = 6;
/** An H/L marker's box. */
const MARKER_BOX_PX = { width: 40, height: 34 };
/** Room kept between two isoline labels, CSS px. */
const LABEL_GAP_PX = 24;
/** Most labels drawn at once. */
const MAX_DRAWN = 160;

export interface IsolineLabelsLayer {
  dispose(): void;
}

/** A label's box (axis-aligned around the rotated text) centred at x, y. */
export function rotatedBox(x: number, y: number, width: number, height: number, angleDeg: number, gap = 0): Box {
  const a = (angleDeg * Math.PI) / 180;
  const w = Math.abs(width * Math.cos(a)) + Math.abs(height * Math.sin(a)) + gap;
  const h = Math.abs(width * Math.sin(a)) + Math.abs(height * Math.cos(a)) + gap;
  return { left: x - w / 2, top: y - h / 2, right: x + w / 2, bottom: y + h / 2 };
}

/** A short step along a label's line, normalised Mercator: its direction on the globe's screen. */
const GLOBE_ANGLE_STEP = 1e-4;

/**
 * A label's angle on screen where the map is not Mercator (the globe): the line's direction at the
 * label (its Mercator angle) projected by `screen`, made upright; the Mercator angle where it cannot.
 */
export function projectedAngle(label: Pick<IsolineLabelPlace, 'lon' | 'lat' | 'angle'>, screen: (lon: number, lat: number) => { x: number; y: number } | null): number {
  const a = (label.angle * Math.PI) / 180;
  const p = screen(label.lon, label.lat);
  const q = screen(lonFromMercX(mercX(label.lon) + Math.cos(a) * GLOBE_ANGLE_STEP), latFromMercY(mercY(label.lat) + Math.sin(a) * GLOBE_ANGLE_STEP));
  if (!p || !q || (p.x === q.x && p.y === q.y)) return label.angle;
  let angle = (Math.atan2(q.y - p.y, q.x - p.x) * 180) / Math.PI;
  if (angle > 90) angle -= 180;
  else if (angle < -90) angle += 180;
  return angle;
}

export function startIsolineLabels(app: AppState): IsolineLabelsLayer {
  const host = mapElement();
  const layer = document.createElement('div');
  layer.className = 'isoline-labels';
  layer.dataset.testid = 'isoline-labels';
  host.appendChild(layer);
  const pool: HTMLElement[] = [];
  let used = 0;
  let frame = 0;
  let disposed = false;
  const schedule = () => {
    if (!frame && !disposed) frame = requestAnimationFrame(draw);
  };
  const obstacles = watchObstacles(document.getElementById('root') ?? document.body, host, schedule);

  const element = (): HTMLElement => {
    let el = pool[used];
    if (!el) {
      el = document.createElement('span');
      pool.push(el);
      layer.appendChild(el);
    }
    el.hidden = false;
    used++;
    return el;
  };

  function draw() {
    frame = 0;
    used = 0;
    const view = app.map.view.peek();
    const covered = obstacles.boxes();
    const size = worldSize(view.zoom);
    // World pixels of the view's top-left corner: boxes on the collision plane are in world pixels
    // (on the globe, as for the city labels, in screen pixels).
    const globe = !!view.globe;
    const left = globe ? 0 : mercX(view.lon) * size - view.width / 2;
    const top = globe ? 0 : mercY(view.lat) * size - view.height / 2;
    /** Screen point of a place; null on the far side of the globe. */
    const screen = (lon: number, lat: number) => (globe ? globeLabelAt(view, lon, lat) : lonLatToScreen(view, lon, lat));
    const shown = app.isolines.shown.peek() !== null;
    const { labels, markers } = shown ? isolineLabels.peek() : { labels: [] as IsolineLabelPlace[], markers: [] as IsolineMarker[] };
    const placed: Box[] = [];
    const world: Box[] = [];
    const tryPlace = (x: number, y: number, box: Box, fitWidth: number, fitHeight: number): boolean => {
      if (!labelFits(x, y, fitWidth, fitHeight, view, covered)) return false;
      const onPlane = { left: box.left + left, top: box.top + top, right: box.right + left, bottom: box.bottom + top };
      if (labelPlane.blocked('isolines', view.zoom, onPlane)) return false;
      for (const p of placed) if (boxesOverlap(p, box)) return false;
      placed.push(box);
      world.push(onPlane);
      return true;
    };
    for (const m of markers) {
      const at = screen(m.lon, m.lat);
      if (!at) continue;
      const { x, y } = at;
      const box = rotatedBox(x, y, MARKER_BOX_PX.width, MARKER_BOX_PX.height, 0, LABEL_GAP_PX);
      if (!tryPlace(x, y, box, MARKER_BOX_PX.width, MARKER_BOX_PX.height)) continue;
      const el = element();
      el.className = `isoline-marker isoline-marker-${m.kind}`;
      el.dataset.testid = 'isoline-marker';
      el.dataset.kind = m.kind;
      el.replaceChildren(Object.assign(document.createElement('b'), { textContent: m.kind }), Object.assign(document.createElement('span'), { textContent: m.text }));
      el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px) translate(-50%, -50%)`;
    }
    const ordered = [...labels.filter((l) => l.heavy), ...labels.filter((l) => !l.heavy)];
    for (const label of ordered) {
      if (used >= MAX_DRAWN) break;
      const at = screen(label.lon, label.lat);
      if (!at) continue;
      const { x, y } = at;
      const width = label.text.length * CHAR_WIDTH_PX + LABEL_PADDING_PX;
      const angle = globe ? projectedAngle(label, screen) : label.angle;
      const box = rotatedBox(x, y, width, LABEL_HEIGHT_PX, angle, LABEL_GAP_PX);
      if (!tryPlace(x, y, box, box.right - box.left - LABEL_GAP_PX, box.bottom - box.top - LABEL_GAP_PX)) continue;
      const el = element();
      el.className = label.heavy ? 'isoline-label isoline-label-heavy' : 'isoline-label';
      el.dataset.testid = 'isoline-label';
      delete el.dataset.kind;
      el.textContent = label.text;
      el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px) translate(-50%, -50%) rotate(${angle.toFixed(1)}deg)`;
    }
    for (let i = used; i < pool.length; i++) pool[i].hidden = true;
    labelPlane.publish('isolines', view.zoom, world);
  }

  const stops = [
    effect(() => {
      void isolineLabels.value;
      schedule();
    }),
    effect(() => {
      void app.map.view.value;
      schedule();
    }),
    labelPlane.subscribe((kind) => {
      if (kind === 'cities' || kind === 'storms') schedule();
    }),
    // Isolines off: the labels shown go at once, before the worker's next frame says so.
    effect(() => {
      void app.isolines.shown.value;
      schedule();
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
