/**
 * The airport window (SPEC §2 /airport/{ICAO} and a bare four-letter code): name, ICAO and IATA
 * codes, elevation and local time; the latest METAR and TAF as received and decoded
 * (common/aviation/metar.ts) in the user's units, with the flight category; the runways with the
 * headwind and crosswind of the reported wind (common/aviation/runwayWind.ts); a link to the model
 * forecast at the airport (the forecast window, opened beside this one); favourite as type airport
 * (SPEC §3 Favourite icao). An unknown code opens the window with a clear "not found".
 */

import './airport.css';
import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { AIRPORT_ANSWER, airportPath, type AirportAnswer } from '../../../common/api/airports.ts';
import { checkAnswer } from '../../../common/api/schema.ts';
import { FLIGHT_CATEGORY_COLOURS, type FlightCategory } from '../../../common/aviation/flightCategory.ts';
import { decodeMetar, decodeTaf, type DecodedConditions, type DecodedTaf } from '../../../common/aviation/metar.ts';
import { headingFromDesignator, runwayWind } from '../../../common/aviation/runwayWind.ts';
import type { Favourite } from '../../../common/favourites.ts';
import { pointPath } from '../../../common/routes.ts';
import { useAccount } from '../../services/ServicesContext.tsx';
import { numberIn } from '../detail/rows.tsx';
import { placeClock, timeZoneAt } from '../detail/placeTime.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { whyNoMetar, type MetarMissing } from './metarMissing.ts';

const FT_TO_M = 0.3048;
type Load = { code: string; status: 'ready'; answer: AirportAnswer } | { code: string; status: 'missing' } | { code: string; status: 'error'; message: string };

function decodeOrNull<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null; // the server publishes only reports that decode; an older client may still refuse one
  }
}

export function CategoryBadge({ category }: { category: FlightCategory | null }) {
  if (!category) return null;
  const [r, g, b] = FLIGHT_CATEGORY_COLOURS[category];
  return <span className="airport-category" data-testid="airport-category" style={{ background: `rgb(${r}, ${g}, ${b})` }}>{category}</span>;
}

export default function AirportPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t, i18n } = useTranslation('airport');
  const { t: tc } = useTranslation();
  const code = String(params.id ?? '').toUpperCase();
  const [load, setLoad] = useState<Load | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetch(airportPath(code), { signal: abort.signal })
      .then(async (response) => {
        if (response.status === 404 || response.status === 400) return setLoad({ code, status: 'missing' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        setLoad({ code, status: 'ready', answer: checkAnswer(AIRPORT_ANSWER, await response.json(), 'airport') });
      })
      .catch((e: unknown) => { if (!abort.signal.aborted) setLoad({ code, status: 'error', message: (e as Error).message }); });
    return () => abort.abort();
  }, [code]);

  const state = load?.code === code ? load : null;
  return (
    <PanelFrame title={state?.status === 'ready' && state.answer.name ? state.answer.name : `${t('title')} ${code}`} close={close} className="airport-panel">
      <div data-testid="airport-panel" className="airport-body">
        {!state && <p role="status">{tc('app.loading')}</p>}
        {state?.status === 'missing' && <p role="alert" data-testid="airport-not-found">{t('notFound', { code })}</p>}
        {state?.status === 'error' && <p role="alert">{t('error', { message: state.message })}</p>}
        {state?.status === 'ready' && <AirportView answer={state.answer} app={app} language={i18n.language} t={t} />}
      </div>
    </PanelFrame>
  );
}

type T = (key: string, options?: Record<string, unknown>) => string;

function AirportView({ answer, app, language, t }: { answer: AirportAnswer; app: PanelProps['app']; language: string; t: T }) {
  const units = app.units.units.value;
  const unit = (metric: string) => units[metric] ?? '';
  const hour12 = app.units.hour12.value;
  const timeZone = useMemo(() => timeZoneAt(answer.lat, answer.lon), [answer.lat, answer.lon]);
  const clock = useMemo(() => placeClock(timeZone, language, hour12), [timeZone, language, hour12]);
  const now = Date.now();
  const metar = useMemo(() => (answer.metar ? decodeOrNull(() => decodeMetar(answer.metar!.raw, answer.metar!.time + 60_000)) : null), [answer.metar]);
  const taf = useMemo(() => (answer.taf ? decodeOrNull(() => decodeTaf(answer.taf!.raw, answer.taf!.issued + 60_000)) : null), [answer.taf]);
  const value = (metric: string, base: number | null | undefined) => {
    const text = numberIn(metric, unit(metric), base);
    return text === '' ? '—' : `${text} ${unit(metric)}`;
  };
  const fmt = { value, t, clock };
  // No current METAR: the station's silence, or a feed that has not delivered (then the TAF is missing for the same reason).
  const [noMetar, setNoMetar] = useState<MetarMissing | null>(null);
  const metarMissing = answer.metar === null;
  useEffect(() => {
    setNoMetar(null);
    if (!metarMissing) return undefined;
    const abort = new AbortController();
    whyNoMetar(answer.metarsUpdated, abort.signal).then(setNoMetar, () => { if (!abort.signal.aborted) setNoMetar({ key: 'noMetar' }); });
    return () => abort.abort();
  }, [metarMissing, answer.metarsUpdated, answer.icao]);
  const feedSilent = noMetar !== null && noMetar.key !== 'noMetar';

  return (
    <>
      <header className="airport-head">
        <div className="airport-codes">
          <strong data-testid="airport-icao">{answer.icao}</strong>
          {answer.iata && <span data-testid="airport-iata">{answer.iata}</span>}
          <CategoryBadge category={metar?.flightCategory ?? null} />
          <AirportFavStar answer={answer} t={t} />
        </div>
        <p className="airport-facts">
          {[answer.municipality, answer.country].filter(Boolean).join(', ')}
          {answer.elevationFt !== null && <> · {t('elevation', { value: value('altitude', answer.elevationFt * FT_TO_M) })}</>}
          {' · '}<span data-testid="airport-local-time">{t('localTime', { time: clock.time(now) })}</span>
        </p>
        <button type="button" className="airport-forecast" data-testid="airport-forecast"
          onClick={() => void app.router.navigate(pointPath(answer.lat, answer.lon))}>{t('forecast')}</button>
      </header>

      <section data-testid="airport-metar">
        {answer.metar && metar ? (
          <>
            <h3>{t('observed', { time: clock.dateTime(metar.time) })}</h3>
            <pre className="airport-raw" data-testid="airport-metar-raw">{answer.metar.raw}</pre>
            <Conditions c={metar} {...fmt} />
            <dl className="airport-decoded">
              <dt>{t('temperature')}</dt>
              <dd data-testid="airport-temperature">{value('temp', metar.temperatureC === null ? null : metar.temperatureC + 273.15)} / {value('temp', metar.dewPointC === null ? null : metar.dewPointC + 273.15)}</dd>
              <dt>{t('qnh')}</dt>
              <dd data-testid="airport-qnh">{value('pressure', metar.qnhHpa === null ? null : metar.qnhHpa * 100)}</dd>
            </dl>
          </>
        ) : <p data-testid="airport-no-metar">{noMetar ? t(noMetar.key, { source: noMetar.source?.label, minutes: noMetar.source?.minutes }) : metarMissing ? '\u00a0' : t('noMetar')}</p>}
      </section>

      <section data-testid="airport-runways">
        <h3>{t('runways')}</h3>
        {answer.runways === null && <p>{t('noRunways')}</p>}
        {answer.runways?.length === 0 && <p>{t('noRunwaysListed')}</p>}
        <ul className="airport-runway-list">
          {answer.runways?.map((r, i) => (
            <li key={i} data-testid="airport-runway" className={r.closed ? 'closed' : undefined}>
              <strong>{r.ends.map((e) => e.ident).join('/')}</strong>
              {' '}{r.lengthFt !== null && value('altitude', r.lengthFt * FT_TO_M)}{r.widthFt !== null && ` × ${value('altitude', r.widthFt * FT_TO_M)}`}
              {r.surface && ` · ${r.surface}`}{r.closed && ` · ${t('closed')}`}
              {metar?.wind && metar.wind.directionDeg !== null && metar.wind.speedMs > 0 && (
                <span className="airport-runway-wind">
                  {r.ends.map((end) => {
                    const heading = end.headingDegT ?? headingFromDesignator(end.ident);
                    if (heading === null) return null;
                    const w = runwayWind(metar.wind!.directionDeg!, metar.wind!.speedMs, heading);
                    const along = w.headwind >= 0 ? t('head', { value: value('wind', w.headwind) }) : t('tail', { value: value('wind', -w.headwind) });
                    const across = w.crosswind >= 0 ? t('crossRight', { value: value('wind', w.crosswind) }) : t('crossLeft', { value: value('wind', -w.crosswind) });
                    return <span key={end.ident} data-testid="airport-runway-end" data-crosswind-ms={w.crosswind.toFixed(2)}>{end.ident}: {along}, {across}</span>;
                  })}
                </span>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section data-testid="airport-taf">
        {answer.taf && taf ? (
          <>
            <h3>{t('taf', { time: clock.dateTime(taf.issued) })}</h3>
            <pre className="airport-raw" data-testid="airport-taf-raw">{answer.taf.raw}</pre>
            <TafPeriods taf={taf} {...fmt} />
          </>
        ) : !feedSilent && <p>{t('noTaf')}</p>}
      </section>

      <p className="airport-credit">{t('source', { attribution: answer.attribution.join('; ') })}</p>
    </>
  );
}

interface Fmt { value(metric: string, base: number | null | undefined): string; t: T; clock: ReturnType<typeof placeClock> }

function windText(c: DecodedConditions, { value, t }: Fmt): string {
  const w = c.wind;
  if (!w) return '—';
  if (w.speedMs === 0) return t('calm');
  const dir = w.directionDeg === null ? t('variable') : `${String(w.directionDeg).padStart(3, '0')}°`;
  const gust = w.gustMs !== null ? `, ${t('gusts', { value: value('wind', w.gustMs) })}` : '';
  const range = w.variableFromDeg !== null ? ` (${w.variableFromDeg}°–${w.variableToDeg}°)` : '';
  return `${dir} ${value('wind', w.speedMs)}${gust}${range}`;
}

function Conditions({ c, ...fmt }: { c: DecodedConditions } & Fmt) {
  const { value, t } = fmt;
  const visibility = c.visibilityM === null ? '—' : `${c.visibilityAtLeast ? '≥ ' : ''}${value('visibility', c.visibilityM)}`;
  const clouds = c.clouds.length === 0
    ? (c.verticalVisibilityFt !== null ? `${t('verticalVisibility')} ${value('altitude', c.verticalVisibilityFt * FT_TO_M)}` : t('noClouds'))
    : c.clouds.map((l) => `${t(`cover${l.cover}`)} ${l.baseFt === null ? '' : value('altitude', l.baseFt * FT_TO_M)}${l.type ? ` ${l.type}` : ''}`).join(', ');
  return (
    <dl className="airport-decoded">
      <dt>{t('wind')}</dt><dd data-testid="airport-wind">{windText(c, fmt)}</dd>
      <dt>{t('visibility')}</dt><dd data-testid="airport-visibility">{visibility}</dd>
      {c.weather.length > 0 && <><dt>{t('weather')}</dt><dd>{c.weather.join(' ')}</dd></>}
      <dt>{t('clouds')}</dt><dd data-testid="airport-clouds">{clouds}</dd>
      {c.ceilingFt !== null && <><dt>{t('ceiling')}</dt><dd>{value('altitude', c.ceilingFt * FT_TO_M)}</dd></>}
    </dl>
  );
}

function TafPeriods({ taf, ...fmt }: { taf: DecodedTaf } & Fmt) {
  const { t, clock } = fmt;
  const label = (p: DecodedTaf['periods'][number]) => {
    if (p.change === 'PROB' || p.probability !== null) return t('changePROB', { n: p.probability ?? '' });
    return t(`change${p.change ?? 'BASE'}`);
  };
  return (
    <ol className="airport-taf-periods">
      {taf.periods.map((p, i) => (
        <li key={i} data-testid="airport-taf-period">
          <span className="airport-period-head">{label(p)} · {clock.day(p.from)} {clock.time(p.from)}–{clock.time(p.to)} <CategoryBadge category={p.flightCategory} /></span>
          <Conditions c={p} {...fmt} />
        </li>
      ))}
    </ol>
  );
}

/** SPEC §3 Favourite type airport with its icao; adding needs login (the pending action opens it). */
function AirportFavStar({ answer, t }: { answer: AirportAnswer; t: T }) {
  useSignals();
  const account = useAccount();
  const [busy, setBusy] = useState(false);
  const list = account?.favourites.list.value ?? [];
  const existing = account?.session.loggedIn.value ? list.find((f) => f.type === 'airport' && f.icao === answer.icao) : undefined;
  const toggle = async () => {
    if (!account) return;
    setBusy(true);
    try {
      if (existing) {
        await account.favourites.remove(existing.id);
        return;
      }
      const fav: Favourite = {
        type: 'airport', icao: answer.icao, title: answer.name ?? answer.icao,
        lat: Math.round(answer.lat * 1e3) / 1e3, lon: Math.round(answer.lon * 1e3) / 1e3,
      };
      if (!(await account.session.requireLogin('addFav', fav as unknown as Record<string, unknown>))) return;
      await account.favourites.add(fav);
    } finally {
      setBusy(false);
    }
  };
  const label = existing ? t('favRemove') : t('favAdd');
  return (
    <button type="button" className={existing ? 'fav-star-button active' : 'fav-star-button'} aria-pressed={!!existing} disabled={busy || !account}
      title={label} aria-label={label} data-testid="airport-fav" onClick={() => void toggle()}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill={existing ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round">
        <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
      </svg>
    </button>
  );
}

