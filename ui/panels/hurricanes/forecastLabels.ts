/**
 * The times of a storm's forecast points beside them on the map (the hurricanes overlay): DOM
 * labels over the map canvas, placed again when the view moves, on the flat map and the globe
 * (the far side of the globe hides them), as the isoline labels are (ui/labels/isolineLabels.ts).
 * They share the labels' collision plane (ui/labels/collisionPlane.ts): a time goes right of its
 * point, else left, above or below, where it covers no city label and no other time, and is left
 * out where none of those is free; isoline labels and base-map names keep clear of the times.
 */

import { effect } from '@preact/signals-core';
import { lonLatToScreen, mercX, mercY, worldSize } from '../../../common/map.ts';
import { boxesOverlap, labelPlane } from '../../labels/collisionPlane.ts';
import { globeLabelAt } from '../../labels/globeLabels.ts';
import type { Box } from '../../labels/labelObstacles.ts';
import { mapElement } from '../../map/mapCanvas.ts';
import type { AppState } from '../../state/appState.ts';

export interface ForecastLabel {
  lon: number;
  lat: number;
  text: string;
}

/** Gap between a forecast point's centre and its time, CSS px (clear of the point's disc). */
const POINT_GAP_PX = 8;

export interface LabelSize {
  /** The point on screen. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The four places tried for a time, in order: right of its point, left, above, below. */
export function candidateBoxes({ x, y, width, height }: LabelSize): Box[] {
  return [
    { left: x + POINT_GAP_PX, right: x + POINT_GAP_PX + width, top: y - height / 2, bottom: y + height / 2 },
    { left: x - POINT_GAP_PX - width, right: x - POINT_GAP_PX, top: y - height / 2, bottom: y + height / 2 },
    { left: x - width / 2, right: x + width / 2, top: y - POINT_GAP_PX - height, bottom: y - POINT_GAP_PX },
    { left: x - width / 2, right: x + width / 2, top: y + POINT_GAP_PX, bottom: y + POINT_GAP_PX + height },
  ];
}

/**
 * Where each time goes (screen boxes; null: left out): the first candidate place that `blocked`
 * (the labels ranked above) allows and that overlaps no time placed before it, in the order given.
 */
export function placeTimes(sizes: readonly (LabelSize | null)[], blocked: (box: Box) => boolean): (Box | null)[] {
  const placed: Box[] = [];
  return sizes.map((size) => {
    if (!size) return null;
    const box = candidateBoxes(size).find((b) => !blocked(b) && !placed.some((p) => boxesOverlap(p, b))) ?? null;
    if (box) placed.push(box);
    return box;
  });
}

/** Shows `labels` on the map until the returned function is called. */
export function showForecastLabels(app: AppState, labels: readonly ForecastLabel[]): () => void {
  const layer = document.createElement('div');
  layer.className = 'storm-labels';
  layer.dataset.testid = 'storm-labels';
  mapElement().appendChild(layer);
  const spans = labels.map((l) => {
    const span = document.createElement('span');
    span.className = 'storm-time-label';
    span.dataset.testid = 'storm-time-label';
    span.textContent = l.text;
    layer.appendChild(span);
    return span;
  });
  let frame = 0;
  /** Label sizes, CSS px, measured once they are in the page. */
  let sizes: { width: number; height: number }[] | null = null;
  const place = () => {
    frame = 0;
    const view = app.map.view.peek();
    sizes ??= spans.map((span) => ({ width: span.offsetWidth, height: span.offsetHeight }));
    // World pixels of the view's corner: the plane's boxes are in world px (screen px on the globe).
    const size = worldSize(view.zoom);
    const left = view.globe ? 0 : mercX(view.lon) * size - view.width / 2;
    const top = view.globe ? 0 : mercY(view.lat) * size - view.height / 2;
    const onPlane = (b: Box): Box => ({ left: b.left + left, right: b.right + left, top: b.top + top, bottom: b.bottom + top });
    const boxes = placeTimes(labels.map((l, i) => {
      const at = view.globe ? globeLabelAt(view, l.lon, l.lat) : lonLatToScreen(view, l.lon, l.lat);
      return at ? { x: at.x, y: at.y, ...sizes![i] } : null;
    }), (b) => labelPlane.blocked('storms', view.zoom, onPlane(b)));
    boxes.forEach((box, i) => {
      spans[i].hidden = !box;
      if (box) spans[i].style.transform = `translate(${Math.round(box.left)}px, ${Math.round(box.top)}px)`;
    });
    labelPlane.publish('storms', view.zoom, boxes.filter((b): b is Box => b !== null).map(onPlane));
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(place);
  };
  const stopView = effect(() => {
    void app.map.view.value;
    schedule();
  });
  const stopPlane = labelPlane.subscribe((kind) => {
    if (kind === 'cities') schedule();
  });
  const stop = () => {
    stopView();
    stopPlane();
    labelPlane.publish('storms', app.map.view.peek().zoom, []);
  };
  return () => {
    stop();
    if (frame) cancelAnimationFrame(frame);
    layer.remove();
  };
}
