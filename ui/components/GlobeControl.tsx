/**
 * SPEC §2 window "globe" (desktop): a button on the map opens the globe; while it shows, a small
 * window says so, notes when the chosen overlay is one the globe cannot show (SPEC §3
 * unsupported-on-globe flag) and takes the user back to the flat map.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { overlayByIdent } from '../../common/catalogue/overlays.ts';
import { showGlobe, shownOnGlobe } from '../map/globeMode.ts';
import type { AppState } from '../state/appState.ts';
import './globeControl.css';

export function GlobeControl({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const globe = app.map.globe.value;
  const overlay = overlayByIdent(app.layer.overlay.value);
  if (app.mobile()) return null;
  if (!globe) {
    return (
      <button type="button" className="globe-open" data-testid="globe-open" title={t('map.globe.openHint')} onClick={() => showGlobe(app, true)}>
        <span aria-hidden="true">◍</span> {t('map.globe.open')}
      </button>
    );
  }
  return (
    <section className="globe-window" data-testid="globe-window" aria-label={t('map.globe.title')}>
      <strong>{t('map.globe.title')}</strong>
      <button type="button" className="globe-close" data-testid="globe-close" title={t('map.globe.closeHint')} onClick={() => showGlobe(app, false)}>
        {t('map.globe.close')}
      </button>
      {!shownOnGlobe(overlay, true) && overlay && (
        <p className="globe-note" role="note" data-testid="globe-note">
          {t('map.globe.notSupported', { name: t(overlay.trans) })} {t('map.globe.hidden')}
        </p>
      )}
    </section>
  );
}
