/**
 * The camera as signals: centre, zoom and the viewport (SPEC §2 "Map"), on the flat map or on the
 * globe (SPEC §2 window "globe", common/globe.ts), each with its own ranges.
 */

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { clampZoom, constrainView, type View } from '../../common/map.ts';
import { clampGlobeZoom, constrainGlobeView, globeZoomToFit } from '../../common/globe.ts';
import type { ViewParams } from '../../workers/api.ts';

export interface MapModel {
  readonly lat: ReadonlySignal<number>;
  readonly lon: ReadonlySignal<number>;
  readonly zoom: ReadonlySignal<number>;
  readonly view: ReadonlySignal<ViewParams>;
  /** The globe is shown instead of the flat map. */
  readonly globe: ReadonlySignal<boolean>;
  /** Switches between the flat map and the globe, keeping the centre; the globe opens whole. */
  setGlobe(on: boolean): void;
  /** A zoom within the range of the map shown (flat map or globe). */
  clampZoom(zoom: number): number;
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
  const globe = signal(false);
  const clamp = (z: number) => (globe.peek() ? clampGlobeZoom(z) : clampZoom(z));

  const apply = (v: View) => {
    const c = globe.peek() ? constrainGlobeView(v) : constrainView(v);
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
    globe,
    clampZoom: clamp,
    view: computed(() => ({
      lat: lat.value, lon: lon.value, zoom: zoom.value, width: width.value, height: height.value, pixelRatio: pixelRatio.value, globe: globe.value,
    })),
    setGlobe(on) {
      if (on === globe.peek()) return;
      batch(() => {
        globe.value = on;
        const z = on ? globeZoomToFit(width.peek(), height.peek()) : clampZoom(zoom.peek());
        apply({ lat: lat.peek(), lon: lon.peek(), zoom: z, width: width.peek(), height: height.peek() });
      });
    },
    moveTo(center) {
      apply({
        lat: center.lat ?? lat.value,
        lon: center.lon ?? lon.value,
        zoom: clamp(center.zoom ?? zoom.value),
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
