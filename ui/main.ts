/**
 * Boots the page in two steps. This small entry starts what the first particles wait for — the
 * render worker (its engine compiles at once), the state from the URL, the minifest and the first
 * tiles — and only then loads React and the UI, which parse in parallel with that work.
 */

// First: starts the render worker before the rest of this bundle is evaluated.
import './boot/early.ts';
import { bootGuards } from './boot/guards.ts';
import { startMapCanvas } from './map/mapCanvas.ts';
import { renderClient } from './map/renderClient.ts';
import { startRenderSync } from './map/renderSync.ts';
import { startCapAlertsSync } from './map/capAlerts.ts';
import { PANELS } from './panels/panels.ts';
import { createAppState } from './state/appState.ts';
import { indexedDbBackend, memoryBackend } from './state/settingsStore.ts';

performance.mark('isobar:script');
// SPEC §2: inside a foreign site's frame the page shows the 'unlegal embed' notice and stops here.
if (bootGuards().foreignEmbed) {
  await import('./boot/embedNotice.ts').then((m) => m.showEmbedNotice());
  await new Promise<never>(() => {});
}
renderClient.api();
const app = createAppState(location.search, navigator.language, PANELS);
startMapCanvas(app, document.body);
startRenderSync(app);
startCapAlertsSync(app);
void app.data.start([app.layer.product.peek()]);
// Settings load from IndexedDB meanwhile (memory when the browser has none, SPEC §8).
const settingsLoaded = indexedDbBackend().then((backend) => app.settings.load(backend ?? memoryBackend()));

// A handle for the /debug window, benchmarks and end-to-end tests: live engine figures and hooks.
Object.assign(window, { isobar: { app, render: () => renderClient.api() } });

const { startUi } = await import('./startUi.tsx');
await startUi(app, settingsLoaded);
