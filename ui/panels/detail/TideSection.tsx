/**
 * The detail window's tide row (SPEC §1 tide forecast, Premium): for a place within reach of a tide
 * station, the curve of the next days with its high and low waters in the place's local time, the
 * station, its datum and its credit line. A free user sees the Premium prompt where a station is; a
 * place without one shows nothing.
 */

import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METRICS } from '../../../common/catalogue/metrics.ts';
import type { TideAnswer } from '../../../common/api/tides.ts';
import type { PlaceClock } from './placeTime.ts';
import { DAY_MS } from '../../../common/time.ts';
import { extremesByDay, fetchTides, localMidnight, tideCurvePath, TIDE_DAYS, type TideState } from './tides.ts';

const WIDTH = 720;
const HEIGHT = 84;

interface Props {
  lat: number;
  lon: number;
  timeZone: string;
  clock: PlaceClock;
  /** A subscriber's token (null: free or anonymous). */
  token: string | null;
  /** The user's wave-height unit (m or ft). */
  unit: string;
  openSubscription(): void;
}

export function TideSection({ lat, lon, timeZone, clock, token, unit, openSubscription }: Props) {
  const { t } = useTranslation('tides');
  const key = `${lat}/${lon}/${token ?? ''}`;
  const [state, setState] = useState<{ key: string; state: TideState } | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchTides(lat, lon, timeZone, Date.now(), abort.signal, token).then(
      (s) => setState({ key, state: s }),
      (error: Error) => {
        if (!abort.signal.aborted) setState({ key, state: { kind: 'error', error } });
      },
    );
    return () => abort.abort();
  }, [key, lat, lon, timeZone, token]);

  const current = state?.key === key ? state.state : null;
  if (current === null || current.kind === 'none') return null;
  if (current.kind === 'premium') {
    return (
      <section className="detail-tides premium" data-testid="detail-tides" data-state="premium">
        <h3>{t('title')}</h3>
        <span className="detail-premium" aria-hidden="true">★</span>
        <span className="detail-hint" data-testid="detail-tides-premium">{t('premium')}</span>
        <button type="button" className="detail-tides-get" onClick={openSubscription}>{t('getPremium')}</button>
      </section>
    );
  }
  if (current.kind === 'error') {
    return <section className="detail-tides" data-testid="detail-tides" data-state="error"><p className="detail-message error">{t('error')}</p></section>;
  }
  return <TideForecast answer={current.answer} clock={clock} timeZone={timeZone} unit={unit} />;
}

function TideForecast({ answer, clock, timeZone, unit }: { answer: TideAnswer; clock: PlaceClock; timeZone: string; unit: string }) {
  const { t } = useTranslation('tides');
  const { path, x, y } = useMemo(() => tideCurvePath(answer, WIDTH, HEIGHT), [answer]);
  const days = useMemo(() => extremesByDay(answer.extremes, timeZone), [answer, timeZone]);
  const conv = METRICS.waves.conv[unit] ?? METRICS.waves.conv.m;
  const height = (m: number) => `${conv.to(m).toFixed(1)}\u00a0${conv.label}`;
  const now = Date.now();
  const { station } = answer;
  return (
    <section className="detail-tides" data-testid="detail-tides" data-state="ready" data-station={station.id} data-extremes={answer.extremes.length}>
      <h3>
        {t('title')}
        <span className="detail-tides-station" data-testid="detail-tides-station">
          {station.distanceKm !== undefined && station.distanceKm >= 1
            ? t('stationAway', { name: station.name, distance: station.distanceKm.toFixed(0) })
            : t('station', { name: station.name })}
        </span>
      </h3>
      <svg className="detail-tides-curve" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={t('curve')}>
        {Array.from({ length: TIDE_DAYS - 1 }, (_, i) => localMidnight(answer.from + (i + 1.5) * DAY_MS, timeZone)).map((ms) => (
          <line key={ms} x1={x(ms)} x2={x(ms)} y1={0} y2={HEIGHT} className="day" />
        ))}
        <path d={`${path}L${WIDTH},${HEIGHT}L0,${HEIGHT}Z`} className="fill" />
        <path d={path} className="line" vectorEffect="non-scaling-stroke" />
        {now >= answer.from && now <= answer.to && <line x1={x(now)} x2={x(now)} y1={0} y2={HEIGHT} className="now" vectorEffect="non-scaling-stroke" />}
        {/* A round-capped line of no length: a dot the stretched view box does not squash. */}
        {answer.extremes.map((e) => <line key={e.time} x1={x(e.time)} x2={x(e.time)} y1={y(e.height)} y2={y(e.height)} className={e.high ? 'high' : 'low'} vectorEffect="non-scaling-stroke" />)}
      </svg>
      <div className="detail-tides-days">
        {days.map((d) => (
          <div key={d.day} className="detail-tides-day">
            <span className="detail-tides-dayname">{clock.day(d.extremes[0].time)}</span>
            {d.extremes.map((e) => (
              <span key={e.time} className={e.high ? 'high' : 'low'} data-testid="detail-tide-extreme" data-time={e.time} data-high={e.high}
                title={`${t(e.high ? 'high' : 'low')} · ${clock.dateTime(e.time)}`}>
                {e.high ? '▲' : '▼'} {clock.time(e.time)} {height(e.height)}
              </span>
            ))}
          </div>
        ))}
      </div>
      <p className="detail-note" data-testid="detail-tides-credit">
        {t('datum', { datum: station.datum })} · {t('astronomical')} · {station.source.name} · {station.attribution}
      </p>
    </section>
  );
}
