/**
 * The UI half of the boot (main.ts): languages, the address bar, React, and the composition root
 * of the services around the UI (services/compose.ts), created here once and handed down.
 */

import { effect, untracked } from '@preact/signals-core';
import { startTransition, StrictMode } from 'react';
import { PRODUCTS } from '../common/catalogue/products.ts';
import { isPremiumDayExempt, premiumDaysFrom } from '../common/entitlements.ts';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { chooseLanguage, initI18n } from './i18n.ts';
import type { AppState } from './state/appState.ts';
import { chooseOverlay, startProductRules } from './state/layerActions.ts';
import { composeServices } from './services/compose.ts';
import { startMapSelectorRule } from './services/mapSelectorRule.ts';
import { ServicesProvider } from './services/ServicesContext.tsx';
import { startSettingsSync } from './services/settingsSync.ts';
import { startUrlSync } from './services/urlSync.ts';
import './styles.css';

/** Runs once when the first calendar and the served products are in. */
function whenReady(app: AppState, run: () => void): void {
  const stop = effect(() => {
    if (app.data.status.value !== 'ready' || !app.data.served.value.length) return;
    queueMicrotask(() => stop());
    untracked(run);
  });
}

/** The UI waits this long at most for stored settings (language, units) before it renders. */
const SETTINGS_WAIT_MS = 1000;

export async function startUi(app: AppState, settingsLoaded: Promise<void>): Promise<void> {
  await Promise.race([settingsLoaded, new Promise((resolve) => setTimeout(resolve, SETTINGS_WAIT_MS))]);
  startSettingsSync(app);
  startProductRules(app);
  startMapSelectorRule(app);
  effect(() => {
    // SPEC §6: free users' time stops before the premium days (the server refuses them too).
    const calendar = app.timeline.calendar.value;
    const product = PRODUCTS[app.layer.product.value];
    const premium = app.settings.get('subscription') === 'premium';
    const from = calendar && product && !premium && !isPremiumDayExempt(app.layer.overlay.value) ? premiumDaysFrom(product, calendar.refTime) : null;
    app.timeline.setLimit(from === null ? null : from - 1);
  });
  whenReady(app, () => {
    // An overlay asked for in the URL that the start-up model lacks picks a model that has it (SPEC §4).
    const wanted = app.initialUrl.overlay;
    if (wanted && app.layer.overlay.peek() !== wanted) chooseOverlay(app, wanted);
  });
  const i18n = await initI18n(chooseLanguage(app.router.initial.lang, app.settings.get('lang'), navigator.languages ?? [navigator.language]));
  app.router.start();
  startUrlSync(app, (overlay) => `${i18n.t(`overlay.${overlay}`)} · ${i18n.t('app.name')}`);
  // Rendered in a transition, React yields to the page every few ms while it builds the UI, so
  // the worker's messages, the minifest and the first tiles are not held behind one long task.
  const services = composeServices(app);
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <ServicesProvider value={services}>
          <App app={app} />
        </ServicesProvider>
      </StrictMode>,
    );
  });
}
