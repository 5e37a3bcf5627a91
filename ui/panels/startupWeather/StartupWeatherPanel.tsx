/**
 * The start-up weather card (SPEC §2 "Start page"): the weather now at the user's start position
 * (services/startupPosition.ts) from GET /forecast/point/{product}/v2.9/{lat}/{lon}, with a 'search
 * better location' button (opens the search window) and a 'back to home' button (the start
 * position at the back-to-home zoom 5, SPEC §4). Shown once per page view, until the user clicks,
 * touches or presses a key anywhere. The official warnings at the place are asked for at the same
 * time (SPEC §7: GET /capalerts/{lat}/{lon} "also requested per location at start-up"): the most
 * severe one is named on the card, in its colour, and opens the warning window (/cap-alert/{lat}/{lon}).
 */

import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { CAP_ALERTS_ANSWER, capAlertsPath, type CapAlertsAnswer } from '../../../common/api/capAlerts.ts';
import { POINT_ANSWER, pointPath } from '../../../common/api/forecast.ts';
import { formatValue, METRICS } from '../../../common/catalogue/metrics.ts';
import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { BACK_TO_HOME_ZOOM } from '../../../common/limits.ts';
import { OverlayIcon } from '../../components/icons.tsx';
import type { PanelProps } from '../registry.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import type { StartPosition } from '../../services/startupPosition.ts';
import './startupWeather.css';

/** The answer of the point forecast, the part the card reads. */
interface PointAnswer {
  header: { product?: string; demo?: boolean };
  ts: number[];
  data: Record<string, (number | null)[]>;
}

export interface WeatherNow {
  time: number;
  temp: number | null;
  wind: number | null;
  /** Degrees the wind blows from. */
  windFrom: number | null;
  gust: number | null;
  rain: number | null;
  clouds: number | null;
  demo: boolean;
}

/** The step nearest to now of a point forecast answer, wind from its u and v components. */
export function weatherNow(answer: PointAnswer, now: number): WeatherNow | null {
  const { ts, data } = answer;
  if (!ts.length) return null;
  let best = 0;
  for (let i = 1; i < ts.length; i++) if (Math.abs(ts[i] - now) < Math.abs(ts[best] - now)) best = i;
  const at = (key: string) => {
    const v = data[key]?.[best];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  const u = at('wind_u');
  const v = at('wind_v');
  const wind = u !== null && v !== null ? Math.hypot(u, v) : null;
  // Meteorological direction: where the wind comes from, clockwise from north.
  const windFrom = u !== null && v !== null && wind ? (Math.atan2(-u, -v) * 180 / Math.PI + 360) % 360 : null;
  return { time: ts[best], temp: at('temp'), wind, windFrom, gust: at('gust'), rain: at('rain'), clouds: at('clouds'), demo: !!answer.header.demo };
}

function placeLabel(t: (key: string, params?: Record<string, unknown>) => string, position: Partial<StartPosition>): string {
  if (position.source === 'location') return t('startup.home');
  if (position.source === 'last') return t('startup.last');
  if (position.name) return t('startup.near', { name: position.name });
  return t('startup.here');
}

export default function StartupWeatherPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation();
  const card = useRef<HTMLDivElement>(null);
  const position = params as Partial<StartPosition>;
  const [now, setNow] = useState<WeatherNow | null | 'loading'>('loading');
  const [warnings, setWarnings] = useState<CapAlertsAnswer['alerts']>([]);
  const productIdent = app.data.startProduct.value ?? app.layer.product.value;
  const lat = Number(position.lat);
  const lon = Number(position.lon);

  useEffect(() => {
    const controller = new AbortController();
    fetchAnswer(POINT_ANSWER, pointPath(productIdent, Number(lat.toFixed(3)), Number(lon.toFixed(3))), { signal: controller.signal, cache: 'no-store' })
      .then((answer) => setNow(weatherNow(answer, Date.now())))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          console.warn('Start-up weather not loaded', error);
          setNow(null);
        }
      });
    return () => controller.abort();
  }, [productIdent, lat, lon]);

  useEffect(() => {
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return;
    const controller = new AbortController();
    const lang = document.documentElement.lang || undefined;
    // Most severe first (server/obs/capAlerts/route.ts); a warning service that fails hides the line.
    fetchAnswer(CAP_ALERTS_ANSWER, capAlertsPath(Number(lat.toFixed(3)), Number(lon.toFixed(3)), { lang, source: 'startup' }), { signal: controller.signal })
      .then((answer) => setWarnings(answer.alerts), () => setWarnings([]));
    return () => controller.abort();
  }, [lat, lon]);

  // SPEC §2: shown until the user clicks, touches or presses a key (anywhere but on the card).
  useEffect(() => {
    const dismiss = (event: Event) => {
      if (card.current && event.target instanceof Node && card.current.contains(event.target)) return;
      close();
    };
    window.addEventListener('pointerdown', dismiss, true);
    window.addEventListener('keydown', dismiss, true);
    return () => {
      window.removeEventListener('pointerdown', dismiss, true);
      window.removeEventListener('keydown', dismiss, true);
    };
  }, [close]);

  const unit = (metric: string) => app.units.unitOf(metric);
  const show = (metric: string, value: number | null) => (value === null ? '—' : formatValue(METRICS[metric], unit(metric), value));
  const model = PRODUCTS[productIdent]?.modelName ?? productIdent;
  const timeText = now && now !== 'loading'
    ? new Date(now.time).toLocaleTimeString(document.documentElement.lang || undefined, { hour: 'numeric', minute: '2-digit', hour12: app.units.hour12.value })
    : '';

  return (
    <div className="startup-weather" ref={card} data-testid="startup-weather" role="dialog" aria-labelledby="startup-weather-title">
      <div className="startup-weather-head">
        <h2 id="startup-weather-title">{t('startup.title')}</h2>
        <button type="button" className="startup-weather-close" aria-label={t('startup.close')} onClick={close}>
          <OverlayIcon ident="close" size={16} />
        </button>
      </div>
      <p className="startup-weather-place">
        {placeLabel(t, position)}
        {position.source === 'ip' && <small> · {t('startup.approximate')}</small>}
      </p>
      {now === 'loading' && <p className="startup-weather-note">{t('startup.loading')}</p>}
      {now === null && <p className="startup-weather-note">{t('startup.feelsNone')}</p>}
      {now && now !== 'loading' && (
        <>
          <div className="startup-weather-now">
            <span className="startup-weather-temp" data-testid="startup-temp">{show('temp', now.temp)}</span>
            <dl>
              <div>
                <dt>{t('startup.wind')}</dt>
                <dd>
                  {now.windFrom !== null && <span className="startup-weather-arrow" style={{ transform: `rotate(${Math.round(now.windFrom + 180)}deg)` }} aria-hidden="true">↑</span>}
                  {show('wind', now.wind)}
                </dd>
              </div>
              {now.gust !== null && <div><dt>{t('startup.gust')}</dt><dd>{show('wind', now.gust)}</dd></div>}
              {now.rain !== null && <div><dt>{t('startup.rain')}</dt><dd>{show('rain', now.rain)}</dd></div>}
              {now.clouds !== null && <div><dt>{t('startup.clouds')}</dt><dd>{show('clouds', now.clouds)}</dd></div>}
            </dl>
          </div>
          <p className="startup-weather-note">
            {now.demo ? <>{timeText} · <strong>{t('startup.demo')}</strong></> : t('startup.model', { model, time: timeText })}
          </p>
        </>
      )}
      {warnings.length > 0 && (
        <button type="button" className="startup-weather-warning" data-testid="startup-warning" style={{ borderLeftColor: warnings[0].colour }}
          onClick={() => {
            close();
            void app.router.navigate(`/cap-alert/${lat.toFixed(3)}/${lon.toFixed(3)}`);
          }}>
          <span className="startup-weather-warning-dot" style={{ background: warnings[0].colour }} aria-hidden="true" />
          {warnings[0].headline || warnings[0].event}
          {warnings.length > 1 && <small> {t('startup.moreWarnings', { n: warnings.length - 1 })}</small>}
        </button>
      )}
      <div className="startup-weather-actions">
        <button type="button" onClick={() => {
          close();
          void app.router.openPanel('search');
        }}>{t('startup.searchBetter')}</button>
        <button type="button" onClick={() => {
          const home = app.settings.get('homeLocation') ?? { lat, lon };
          app.map.moveTo({ lat: home.lat, lon: home.lon, zoom: BACK_TO_HOME_ZOOM });
          close();
        }}>{t('startup.backHome')}</button>
      </div>
    </div>
  );
}
