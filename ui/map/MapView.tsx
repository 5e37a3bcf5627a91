/**
 * Input on the map (the canvas itself is created at boot, mapCanvas.ts): the camera, the picker on
 * a click (SPEC §2: the picker opens on a desktop map click), the context menu on a desktop
 * right-click (SPEC §2 window "contextmenu"; the menu key or Shift+F10 opens it at the map's centre)
 * and the zoom keys.
 */

import { useEffect } from 'react';
import { effect } from '@preact/signals-core';
import { useTranslation } from 'react-i18next';
import { screenToLonLat } from '../../common/map.ts';
import { globeUnproject } from '../../common/globe.ts';
import type { AppState } from '../state/appState.ts';
import { Camera } from './camera.ts';
import type { ContextMenuModel } from './contextMenuModel.ts';
import { mapElement } from './mapCanvas.ts';
import { renderClient } from './renderClient.ts';

/** Keys that zoom (SPEC §2 keyboard: plus and minus zoom). */
const ZOOM_KEYS: Record<string, number> = { '+': 1, '=': 1, '-': -1, _: -1 };

export function MapView({ app, contextMenu }: { app: AppState; contextMenu?: ContextMenuModel }) {
  const { t } = useTranslation();

  useEffect(() => {
    const container = mapElement();
    container.setAttribute('aria-label', t('map.label'));
    const api = renderClient.api();

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
    const pointAt = (x: number, y: number) => {
      const view = app.map.view.peek();
      // On the globe, a click off the disc (space) picks nothing.
      const point = view.globe ? globeUnproject(view, x, y) : screenToLonLat(view, x, y);
      return point ? { lat: point.lat, lon: ((((point.lon + 180) % 360) + 360) % 360) - 180 } : null;
    };
    const camera = new Camera(container, app.map, {
      onClick: (x, y) => {
        contextMenu?.close();
        const point = pointAt(x, y);
        if (point) pick(point.lat, point.lon);
      },
    });
    const onContextMenu = (e: MouseEvent) => {
      // SPEC §2: the context menu is the desktop's; a phone's long press stays the browser's.
      if (!contextMenu || app.mobile()) return;
      e.preventDefault();
      const rect = container.getBoundingClientRect();
      // From the keyboard (menu key, Shift+F10) the event has no pointer position: the map's centre.
      const keyboard = e.button !== 2 && e.clientX === 0 && e.clientY === 0;
      const x = keyboard ? rect.width / 2 : e.clientX - rect.left;
      const y = keyboard ? rect.height / 2 : e.clientY - rect.top;
      const point = pointAt(x, y);
      if (point) contextMenu.open({ x, y, ...point });
    };
    container.addEventListener('contextmenu', onContextMenu);

    // The picker's value follows the time, the overlay and an accumulation's range.
    const stopPicker = effect(() => {
      void app.timeline.timestamp.value;
      void app.layer.overlay.value;
      void app.accumulation.range.value;
      const p = app.picker.position.peek();
      if (p) pick(p.lat, p.lon);
    });

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
      container.removeEventListener('contextmenu', onContextMenu);
      window.removeEventListener('keydown', onKey);
      stopPicker();
      camera.dispose();
    };
  }, [app, t, contextMenu]);

  return null;
}
