/**
 * A window about one point (the point forecast, the sounding, the model comparison) marks it on
 * the map and, once the map stands where it opened (SPEC §2 start-up position), brings it beside
 * the window: a place opened from an address, a search or a favourite may lie anywhere, or under
 * the window itself, and again as the window grows, until the user moves the map. Returns the ref
 * for an element inside the window (its frame).
 */

import { useEffect, useRef } from 'react';
import { useAppServices } from '../services/ServicesContext.tsx';
import type { AppState } from '../state/appState.ts';
import { centreShowing } from '../state/pointMark.ts';

export function usePointMark(app: AppState, lat: number, lon: number) {
  const ref = useRef<HTMLDivElement>(null);
  const services = useAppServices();
  const valid = Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90;
  useEffect(() => (valid ? app.pointMarks.add({ lat, lon }) : undefined), [app, lat, lon, valid]);
  useEffect(() => {
    if (!valid || !services) return undefined;
    let live = true;
    let observer: ResizeObserver | null = null;
    // Where this window left the map: once the user moves it, the window moves it no more.
    let left: { lat: number; lon: number } | null = null;
    const bring = (box: Element) => {
      const { lat: atLat, lon: atLon } = app.map.view.peek();
      if (left && (left.lat !== atLat || left.lon !== atLon)) {
        observer?.disconnect();
        return;
      }
      if (app.map.globe.peek()) return;
      const centre = centreShowing(app.map.view.peek(), { lat, lon }, box.getBoundingClientRect());
      if (centre) app.map.moveTo(centre);
      left = { lat: app.map.lat.peek(), lon: app.map.lon.peek() };
    };
    const start = () => {
      const box = ref.current?.closest('.window') ?? ref.current;
      if (!live || !box) return;
      bring(box);
      // The window grows as its content comes in (a bottom window's height): the place follows.
      if (typeof ResizeObserver === 'function') {
        observer = new ResizeObserver(() => bring(box));
        observer.observe(box);
      }
    };
    void services.started.then(start, start);
    return () => {
      live = false;
      observer?.disconnect();
    };
  }, [app, services, lat, lon, valid]);
  return ref;
}
