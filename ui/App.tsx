/** The application shell: the map and the controls around it. */

import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { hourFormatFor } from '../common/locale.ts';
import { GribOpener } from './components/GribOpener.tsx';
import { Legend } from './components/Legend.tsx';
import { OverlayMenu } from './components/OverlayMenu.tsx';
import { Picker } from './components/Picker.tsx';
import { ProductPicker } from './components/ProductPicker.tsx';
import { Timeline } from './components/Timeline.tsx';
import { MapView } from './map/MapView.tsx';
import { PaneHost } from './panels/PaneHost.tsx';
import { renderError } from './map/renderClient.ts';
import type { AppState } from './state/appState.ts';
import { countryOf } from './state/unitsModel.ts';

export function App({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const hour12 = hourFormatFor(countryOf(navigator.language)) === '12h';

  useEffect(() => {
    // SPEC §2 keyboard: left and right arrows step the forecast (not with Shift).
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
      if (e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        app.timeline.step(e.key === 'ArrowLeft' ? -1 : 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [app]);

  const error = renderError.value ?? (app.data.status.value === 'error' ? t('app.dataError', { model: app.layer.productDef.value.modelName }) : null);
  return (
    <div className="app">
      <MapView app={app} />
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        {app.data.demo.value && (
          <span className="demo-badge" title={t('app.demoDataHint')} data-testid="demo-badge">{t('app.demoData')}</span>
        )}
        <ProductPicker app={app} />
        <GribOpener app={app} />
      </header>
      <Picker app={app} />
      <div className="bottom">
        <OverlayMenu app={app} />
        <Legend app={app} />
        <Timeline app={app} hour12={hour12} />
      </div>
      <PaneHost app={app} />
      {error && (
        <div className="banner error" role="alert">
          {error}
          {app.data.status.value === 'error' && <button type="button" onClick={() => void app.data.reload()}>{t('app.retry')}</button>}
        </div>
      )}
    </div>
  );
}
