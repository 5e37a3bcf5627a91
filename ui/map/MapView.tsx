/**
 * The map: creates the canvas inside the effect (React StrictMode runs effects twice and a canvas
 * transfers once), hands it to the render worker and keeps the worker following the signals.
 */

import { useEffect, useRef } from 'react';
import { effect } from '@preact/signals-react';
import { proxy, releaseProxy, transfer, wrap } from 'comlink';
import { useTranslation } from 'react-i18next';
import { screenToLonLat } from '../../common/map.ts';
import type { RenderApi, RenderEvent } from '../../workers/api.ts';
import type { AppState } from '../state/appState.ts';
import { Camera } from './camera.ts';
import { renderClient } from './renderClient.ts';

/** Keys that zoom (SPEC §2 keyboard: plus and minus zoom). */
const ZOOM_KEYS: Record<string, number> = { '+': 1, '=': 1, '-': -1, _: -1 };

export function MapView({ app }: { app: AppState }) {
  const ref = useRef<HTMLDivElement>(null);
  const { t } = useTranslation();

  useEffect(() => {
    const container = ref.current!;
    const canvas = document.createElement('canvas');
    canvas.className = 'map-canvas';
    canvas.setAttribute('aria-hidden', 'true');
    container.appendChild(canvas);
    const worker = new Worker(new URL('../../workers/render.worker.ts', import.meta.url), { type: 'module', name: 'render' });
    const api = wrap<RenderApi>(worker);
    const disposers: (() => void)[] = [];

    const measure = () => {
      const r = container.getBoundingClientRect();
      app.map.setSize(Math.max(1, Math.round(r.width)), Math.max(1, Math.round(r.height)), window.devicePixelRatio || 1);
    };
    measure();
    const resizeObserver = new ResizeObserver(measure);
    resizeObserver.observe(container);

    const pick = (lat: number, lon: number) => {
      app.picker.open(lat, lon);
      api.sampleAt({ lon, lat }).then(
        (result) => {
          const p = app.picker.position.peek();
          if (p && p.lat === lat && p.lon === lon) app.picker.setResult(result);
        },
        () => app.picker.setResult(null),
      );
    };
    const camera = new Camera(canvas, app.map, {
      onClick: (x, y) => {
        const { lat, lon } = screenToLonLat(app.map.view.peek(), x, y);
        pick(lat, ((((lon + 180) % 360) + 360) % 360) - 180);
      },
    });

    const offscreen = canvas.transferControlToOffscreen();
    const onEvent = (event: RenderEvent) => renderClient.emit(event);
    void api.listen(proxy(onEvent));
    const ready = api.init(transfer({ canvas: offscreen, view: app.map.view.peek(), origin: location.origin }, [offscreen]));
    ready.then((info) => renderClient.ready(info, api), (error: Error) => renderClient.failed(error));

    // The worker follows the camera once per animation frame, however often the signals change.
    let frame = 0;
    disposers.push(effect(() => {
      void app.map.view.value;
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          void api.setView(app.map.view.peek());
        });
      }
    }));
    disposers.push(effect(() => {
      const calendar = app.timeline.calendar.value;
      if (!calendar) return;
      void api.setLayer({
        product: app.layer.product.value,
        overlay: app.layer.overlay.value,
        level: app.layer.level.value,
        refTime: calendar.refTime,
        timestamps: calendar.timestamps,
        time: app.timeline.timestamp.peek(),
        premium: false,
      });
    }));
    disposers.push(effect(() => {
      void api.setTime({ time: app.timeline.timestamp.value });
    }));
    // The picker's value follows the time and the overlay.
    disposers.push(effect(() => {
      void app.timeline.timestamp.value;
      void app.layer.overlay.value;
      const p = app.picker.position.peek();
      if (p) pick(p.lat, p.lon);
    }));

    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
      const delta = ZOOM_KEYS[e.key];
      if (delta) {
        e.preventDefault();
        camera.zoomBy(delta);
      }
    };
    window.addEventListener('keydown', onKey);

    return () => {
      window.removeEventListener('keydown', onKey);
      disposers.forEach((d) => d());
      if (frame) cancelAnimationFrame(frame);
      resizeObserver.disconnect();
      camera.dispose();
      renderClient.detach(api);
      api[releaseProxy]();
      worker.terminate();
      canvas.remove();
    };
  }, [app]);

  return <div ref={ref} className="map" role="application" aria-label={t('map.label')} data-testid="map" />;
}
