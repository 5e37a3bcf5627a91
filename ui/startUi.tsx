/** The UI half of the boot (main.ts): languages, the address bar, React. */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { chooseLanguage, initI18n } from './i18n.ts';
import type { AppState } from './state/appState.ts';
import { startUrlSync } from './state/urlSync.ts';
import './styles.css';

export async function startUi(app: AppState): Promise<void> {
  const i18n = await initI18n(chooseLanguage(app.router.initial.lang, app.settings.get('lang'), navigator.languages ?? [navigator.language]));
  app.router.start();
  startUrlSync(app, (overlay) => `${i18n.t(`overlay.${overlay}`)} · ${i18n.t('app.name')}`);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App app={app} />
    </StrictMode>,
  );
}
