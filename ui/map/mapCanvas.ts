/**
 * The map canvas belongs to the page shell, not to React: it is handed to the render worker during
 * boot (main.ts), so WebGL starts while React still loads. React's map view (MapView.tsx) only
 * adds input on top of it. A canvas transfers control once, which also keeps it out of React's
 * StrictMode double effects.
 */

import { transfer } from 'comlink';
import { FRAME_CAP_STORAGE_KEY, parseFrameCap } from '../../common/frameCap.ts';
import type { AppState } from '../state/appState.ts';
import { renderClient } from './renderClient.ts';

let element: HTMLElement | null = null;

/** The map element (the canvas' container): MapView attaches the camera to it. */
export function mapElement(): HTMLElement {
  if (!element) throw new Error('The map canvas was not created at boot');
  return element;
}

export function startMapCanvas(app: AppState, parent: HTMLElement): HTMLElement {
  const container = document.createElement('div');
  container.className = 'map';
  container.dataset.testid = 'map';
  container.setAttribute('role', 'application');
  const canvas = document.createElement('canvas');
  canvas.className = 'map-canvas';
  canvas.setAttribute('aria-hidden', 'true');
  container.appendChild(canvas);
  parent.prepend(container);
  element = container;

  const measure = () => {
    const r = container.getBoundingClientRect();
    app.map.setSize(Math.max(1, Math.round(r.width)), Math.max(1, Math.round(r.height)), window.devicePixelRatio || 1);
  };
  measure();
  new ResizeObserver(measure).observe(container);

  const offscreen = canvas.transferControlToOffscreen();
  renderClient.api().init(transfer({ canvas: offscreen, view: app.map.view.peek(), frameCap: storedFrameCap() }, [offscreen])).then(
    (info) => renderClient.ready(info),
    (error: Error) => renderClient.failed(error),
  );
  return container;
}

function storedFrameCap(): number | null {
  try {
    return parseFrameCap(localStorage.getItem(FRAME_CAP_STORAGE_KEY));
  } catch {
    return null; // storage refused (private mode, sandboxed frame): no cap
  }
}
