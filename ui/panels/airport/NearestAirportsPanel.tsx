/**
 * The "nearest airports" window (opened by the map's context menu with the point, SPEC §2): the
 * airports nearest the point (GET /airports/v1.0/nearest/{lat}/{lon}, common/api/airports.ts) with
 * their codes, distance in the user's unit and the flight category of their latest METAR; a click
 * opens the airport (/airport/{ICAO}).
 */

import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { NEAREST_AIRPORTS_ANSWER, nearestAirportsPath, type NearestAirportsAnswer } from '../../../common/api/airports.ts';
import type { FlightCategory } from '../../../common/aviation/flightCategory.ts';
import { formatValue, METRICS } from '../../../common/catalogue/metrics.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { CategoryBadge } from './AirportPanel.tsx';
import './airport.css';

/** Airports listed. */
const NEAREST_COUNT = 8;

export default function NearestAirportsPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation('airport');
  const lat = Number(params.lat);
  const lon = Number(params.lon);
  const [answer, setAnswer] = useState<NearestAirportsAnswer | null | 'error'>(null);
  useEffect(() => {
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return;
    const abort = new AbortController();
    fetchAnswer(NEAREST_AIRPORTS_ANSWER, nearestAirportsPath(Number(lat.toFixed(3)), Number(lon.toFixed(3)), NEAREST_COUNT), { signal: abort.signal })
      .then(setAnswer, () => { if (!abort.signal.aborted) setAnswer('error'); });
    return () => abort.abort();
  }, [lat, lon]);
  const distance = (km: number) => formatValue(METRICS.distance, app.units.unitOf('distance'), km * 1000);

  return (
    <PanelFrame title={t('nearest')} close={close} className="nearest-airports-panel">
      {answer === 'error' && <p className="nearest-none" role="alert">{t('error')}</p>}
      {answer && answer !== 'error' && answer.airports.length === 0 && <p className="nearest-none" data-testid="nearest-airports-none">{t('noneNear')}</p>}
      {answer && answer !== 'error' && answer.airports.length > 0 && (
        <>
          <ul className="nearest-airports" data-testid="nearest-airports">
            {answer.airports.map((a) => (
              <li key={a.icao}>
                <button type="button" data-airport={a.icao} onClick={() => void app.router.navigate(`/airport/${a.icao}`)}>
                  <span className="name" title={a.name}>{a.name}</span>
                  <span className="meta">{a.icao}{a.iata ? ` / ${a.iata}` : ''} · {distance(a.distanceKm)}</span>
                  <CategoryBadge category={a.category as FlightCategory | null} />
                </button>
              </li>
            ))}
          </ul>
          <p className="airport-source">{answer.attribution.join(' · ')}</p>
        </>
      )}
    </PanelFrame>
  );
}
