/** Bootstraps the app: state from the URL, languages, then React. */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initI18n } from './i18n.ts';
import { renderClient } from './map/renderClient.ts';
import { createAppState } from './state/appState.ts';
import { startUrlSync } from './state/urlSync.ts';
import './styles.css';

const app = createAppState(location.search, navigator.language);
const i18n = await initI18n();
startUrlSync(app, (overlay) => `${i18n.t(`overlay.${overlay}`)} · ${i18n.t('app.name')}`);
void app.data.start([app.layer.product.peek()]);

// A handle for the /debug window, benchmarks and end-to-end tests: live engine figures and hooks.
Object.assign(window, { isobar: { app, render: () => renderClient.api() } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App app={app} />
  </StrictMode>,
);
