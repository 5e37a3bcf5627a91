/**
 * "Nearest stations" of the detail window (SPEC §2 "Detail view: ... nearest stations"): the
 * weather stations closest to the place (GET /stations/v1.0/list?lat&lon, common/api/stations.ts)
 * with their distance and latest reading, in the order of the setting stationsSort (SPEC §3: profi,
 * the official networks first, or distance). A click opens the station (/station/{id}). Nothing is
 * shown where the server follows no station near enough to list.
 */

import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { STATIONS_LIST_ANSWER, stationsListPath, type StationSummary } from '../../../common/api/stations.ts';
import type { AppState } from '../../state/appState.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { useStationUnits, WindArrow } from './stationParts.tsx';
import { sortStations } from './stationView.ts';

/** Stations listed at most. */
const NEAREST_COUNT = 5;
/** Stations farther than this are no help for the place: not listed. */
const NEAREST_MAX_KM = 300;

/** `emptyText`: said where no station is near (the nearest-stations window); without it nothing shows then. */
export function NearestStations({ app, lat, lon, emptyText }: { app: AppState; lat: number; lon: number; emptyText?: string }) {
  useSignals();
  const { t } = useTranslation('station');
  const units = useStationUnits(app);
  const sort = app.settings.get('stationsSort') as 'profi' | 'distance';
  const [stations, setStations] = useState<StationSummary[] | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    fetchAnswer(STATIONS_LIST_ANSWER, stationsListPath({ lat, lon, limit: NEAREST_COUNT * 2 }), { signal: abort.signal }).then(
      (answer) => setStations(answer.stations.filter((s) => (s.distanceKm ?? Infinity) <= NEAREST_MAX_KM)),
      () => { if (!abort.signal.aborted) setStations([]); },
    );
    return () => abort.abort();
  }, [lat, lon]);

  if (!stations) return null;
  if (stations.length === 0) return emptyText ? <p className="nearest-none" data-testid="nearest-stations-none">{emptyText}</p> : null;
  const shown = sortStations(stations, sort).slice(0, NEAREST_COUNT);
  const age = (time: number) => {
    const minutes = Math.max(0, Math.round((Date.now() - time) / 60_000));
    return minutes < 120 ? t('ago.minutes', { count: minutes }) : minutes < 48 * 60 ? t('ago.hours', { count: Math.round(minutes / 60) }) : t('ago.days', { count: Math.round(minutes / 1440) });
  };
  return (
    <section className="nearest-stations" data-testid="nearest-stations" aria-label={t('nearest')}>
      <h3>
        {t('nearest')}
        <select value={sort} aria-label={t('sort.label')} data-testid="nearest-stations-sort" onChange={(e) => app.settings.set('stationsSort', e.target.value as 'profi' | 'distance')}>
          <option value="profi">{t('sort.profi')}</option>
          <option value="distance">{t('sort.distance')}</option>
        </select>
      </h3>
      <ul>
        {shown.map((s) => (
          <li key={s.id}>
            <button type="button" data-testid="nearest-station" data-station={s.id} onClick={() => void app.router.navigate(`/station/${encodeURIComponent(s.id)}`)}>
              <span className="name" title={s.name}>{s.name}</span>
              <span className="meta">{s.id} · {units.format('distance', (s.distanceKm ?? 0) * 1000)}</span>
              {s.latest && (
                <span>
                  {units.format('temp', s.latest.temp)} · <WindArrow from={s.latest.windDir} size={11} /> {units.format('wind', s.latest.wind)}
                  <span className="meta"> · {age(s.latest.time)}</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
