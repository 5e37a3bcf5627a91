/**
 * The times of a storm's forecast points beside them on the map (the hurricanes overlay): DOM
 * labels over the map canvas, placed again when the view moves, on the flat map and the globe
 * (the far side of the globe hides them), as the isoline labels are (ui/labels/isolineLabels.ts).
 */

import { effect } from '@preact/signals-core';
import { lonLatToScreen } from '../../../common/map.ts';
import { globeLabelAt } from '../../labels/globeLabels.ts';
import { mapElement } from '../../map/mapCanvas.ts';
import type { AppState } from '../../state/appState.ts';

export interface ForecastLabel {
  lon: number;
  lat: number;
  text: string;
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
  const place = () => {
    frame = 0;
    const view = app.map.view.peek();
    labels.forEach((l, i) => {
      const at = view.globe ? globeLabelAt(view, l.lon, l.lat) : lonLatToScreen(view, l.lon, l.lat);
      spans[i].hidden = !at;
      // Right of the point, clear of its disc.
      if (at) spans[i].style.transform = `translate(${Math.round(at.x + 8)}px, ${Math.round(at.y)}px) translateY(-50%)`;
    });
  };
  const stop = effect(() => {
    void app.map.view.value;
    if (!frame) frame = requestAnimationFrame(place);
  });
  return () => {
    stop();
    if (frame) cancelAnimationFrame(frame);
    layer.remove();
  };
}
