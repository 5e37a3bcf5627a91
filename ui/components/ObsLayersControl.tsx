/**
 * Lightning and fires toggles (issue 15 §3, §6) in the map's right column: lightning is the SPEC §3
 * setting blitzOn, drawn over whatever overlay shows (radar, satellite or a forecast); fires the
 * POI set "firespots" (setting pois). When on, each says who made the data (the licence's credit
 * line) and how old it is. The METAR stations are the POI set "metars", coloured by flight category.
 */

import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { loadBundle } from '../i18n.ts';
import type { AppState } from '../state/appState.ts';
import { relativeAge } from './relativeAge.ts';

export function ObsLayersControl({ app }: { app: AppState }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const { obs } = app;
  const lightningOn = obs.lightningOn.value;
  const firesOn = obs.firesOn.value;
  const metarsOn = obs.metarsOn.value;
  const metars = obs.metars.value;
  const lightning = obs.lightning.value;
  const fires = obs.fires.value;
  const now = Date.now();
  // The tide toggle's words are in the small 'tides' bundle, loaded beside the map's controls.
  const [tidesBundle, setTidesBundle] = useState(false);
  useEffect(() => {
    let live = true;
    void loadBundle('tides').then(() => live && setTidesBundle(true));
    return () => {
      live = false;
    };
  }, []);
  const tidesOn = app.tides.on.value;
  const tideStations = app.tides.stations.value;
  return (
    <div className="obs-layers" data-testid="obs-layers">
      <button type="button" className={lightningOn ? 'level active' : 'level'} aria-pressed={lightningOn} data-testid="lightning-toggle"
        onClick={() => obs.setLightningOn(!lightningOn)}>
        {t('obs.lightning')}
      </button>
      {lightningOn && (
        <small className="obs-credit" data-testid="lightning-credit" data-flashes={lightning?.manifest.flashes ?? ''}>
          {lightning
            ? `${lightning.manifest.attribution} · ${t('obs.newest', { age: relativeAge(Date.parse(lightning.manifest.newest), now, i18n.language) })}`
            : obs.lightningError.value ? t('obs.none') : '…'}
        </small>
      )}
      <button type="button" className={firesOn ? 'level active' : 'level'} aria-pressed={firesOn} data-testid="firespots-toggle"
        onClick={() => obs.setFiresOn(!firesOn)}>
        {t('obs.fires')}
      </button>
      {firesOn && (
        <small className="obs-credit" data-testid="firespots-credit" data-spots={fires?.spots.length ?? ''}>
          {fires
            ? `${fires.attribution} · ${t('obs.updated', { age: relativeAge(fires.updated, now, i18n.language) })} · ${t('obs.detections', { count: fires.spots.length })}`
            : obs.firesError.value ? t('obs.none') : '…'}
        </small>
      )}
      {tidesBundle && (
        <button type="button" className={tidesOn ? 'level active' : 'level'} aria-pressed={tidesOn} data-testid="tide-toggle"
          onClick={() => app.tides.setOn(!tidesOn)}>
          {t('tides:layer')}
        </button>
      )}
      {tidesBundle && tidesOn && (
        <small className="obs-credit" data-testid="tide-credit" data-stations={tideStations?.ids.length ?? ''}>
          {tideStations ? t('tides:stationCount', { count: tideStations.ids.length }) : app.tides.error.value ? t('obs.none') : '…'}
        </small>
      )}
      <button type="button" className={metarsOn ? 'level active' : 'level'} aria-pressed={metarsOn} data-testid="metars-toggle"
        onClick={() => obs.setMetarsOn(!metarsOn)}>
        {t('obs.metars')}
      </button>
      {metarsOn && (
        <small className="obs-credit" data-testid="metars-credit" data-stations={metars?.icao.length ?? ''}>
          {metars
            ? `${metars.attribution} · ${t('obs.updated', { age: relativeAge(metars.updated, now, i18n.language) })}`
            : obs.metarsError.value ? t('obs.none') : '…'}
        </small>
      )}
    </div>
  );
}
