/**
 * Lightning and fires toggles (issue 15 §3, §6) in the map's right column: lightning is the SPEC §3
 * setting blitzOn, drawn over whatever overlay shows (radar, satellite or a forecast); fires the
 * POI set "firespots" (setting pois). When on, each says who made the data (the licence's credit
 * line) and how old it is. The METAR stations are the POI set "metars", coloured by flight category.
 * With nothing published, the credit says why (the observation status: no source followed, none
 * delivered yet, or its source unreachable) rather than only "no data yet".
 */

import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { ObsKind } from '../../common/obsKinds.ts';
import { fetchObsSourceState, nothingShown, type NothingShown } from '../http/obsSource.ts';
import { loadBundle } from '../i18n.ts';
import { isMetarFeed } from '../panels/airport/metarMissing.ts';
import type { AppState } from '../state/appState.ts';
import { relativeAge } from './relativeAge.ts';

/** Why a layer that is on has nothing published ('none': its load found no file), once it is known. */
function useNothingPublished(kind: ObsKind, nothing: boolean, only?: (id: string) => boolean): NothingShown<'none'> | null {
  const [why, setWhy] = useState<NothingShown<'none'> | null>(null);
  useEffect(() => {
    setWhy(null);
    if (!nothing) return undefined;
    const abort = new AbortController();
    fetchObsSourceState(kind, abort.signal, only).then((state) => setWhy(nothingShown(state, 'none')), () => {
      if (!abort.signal.aborted) setWhy({ key: 'none' });
    });
    return () => abort.abort();
  }, [kind, nothing, only]);
  return why;
}

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
  const lightningWhy = useNothingPublished('lightning', lightningOn && obs.lightningError.value === 'none');
  const firesWhy = useNothingPublished('fires', firesOn && obs.firesError.value === 'none');
  const metarsWhy = useNothingPublished('metars', metarsOn && obs.metarsError.value === 'none', isMetarFeed);
  const nothing = (error: string | null, why: NothingShown<'none'> | null) => {
    if (!error) return '…';
    if (error !== 'none' || !why) return t('obs.none');
    return t(`obs.${why.key}`, { source: why.source?.label, minutes: why.source?.minutes });
  };
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
            : nothing(obs.lightningError.value, lightningWhy)}
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
            : nothing(obs.firesError.value, firesWhy)}
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
            : nothing(obs.metarsError.value, metarsWhy)}
        </small>
      )}
    </div>
  );
}
