/**
 * Boots the page in two steps. This small entry starts what the first particles wait for — the
 * render worker (its engine compiles at once), the state from the URL, the minifest and the first
 * tiles — and only then loads React and the UI, which parse in parallel with that work.
 */

import { startMapCanvas } from './map/mapCanvas.ts';
import { renderClient } from './map/renderClient.ts';
import { startRenderSync } from './map/renderSync.ts';
import { createAppState } from './state/appState.ts';

performance.mark('isobar:script');
renderClient.api();
const app = createAppState(location.search, navigator.language);
startMapCanvas(app, document.body);
startRenderSync(app);
void app.data.start([app.layer.product.peek()]);

// A handle for the /debug window, benchmarks and end-to-end tests: live engine figures and hooks.
Object.assign(window, { isobar: { app, render: () => renderClient.api() } });

const { startUi } = await import('./startUi.tsx');
await startUi(app);
