/** The camera as signals: centre, zoom and the viewport (SPEC §2 "Map"). */

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { clampZoom, constrainView, type View } from '../../common/map.ts';
import type { ViewParams } from '../../workers/api.ts';

export interface MapModel {
  readonly lat: ReadonlySignal<number>;
  readonly lon: ReadonlySignal<number>;
  readonly zoom: ReadonlySignal<number>;
  readonly view: ReadonlySignal<ViewParams>;
  /** Moves the camera; latitude is kept where the world fills the view, longitude wraps, zoom clamps. */
  moveTo(center: { lat?: number; lon?: number; zoom?: number }): void;
  setSize(width: number, height: number, pixelRatio: number): void;
}

export function createMapModel(initial: { lat: number; lon: number; zoom: number }): MapModel {
  const lat = signal(initial.lat);
  const lon = signal(initial.lon);
  const zoom = signal(clampZoom(initial.zoom));
  const width = signal(1);
  const height = signal(1);
  const pixelRatio = signal(1);

  const apply = (v: View) => {
    const c = constrainView(v);
    batch(() => {
      lat.value = c.lat;
      lon.value = c.lon;
      zoom.value = c.zoom;
    });
  };

  return {
    lat,
    lon,
    zoom,
    view: computed(() => ({ lat: lat.value, lon: lon.value, zoom: zoom.value, width: width.value, height: height.value, pixelRatio: pixelRatio.value })),
    moveTo(center) {
      apply({
        lat: center.lat ?? lat.value,
        lon: center.lon ?? lon.value,
        zoom: clampZoom(center.zoom ?? zoom.value),
        width: width.value,
        height: height.value,
      });
    },
    setSize(w, h, pr) {
      batch(() => {
        width.value = w;
        height.value = h;
        pixelRatio.value = pr;
      });
      apply({ lat: lat.value, lon: lon.value, zoom: zoom.value, width: w, height: h });
    },
  };
}
