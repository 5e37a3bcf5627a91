/**
 * The station window (SPEC §2 /station/{id}[/basic|wind|compare]): a weather station's observations
 * (GET /stations/v1.0/station/{id}, common/api/stations.ts) in the user's units and the station's
 * own time zone:
 *
 *   basic     the recent observations, newest first: temperature, dew point, wind (direction,
 *             speed, gust), pressure, humidity, the weather as the provider words it
 *   wind      wind and gust over time, with arrows showing where the wind blows to
 *   compare   observed temperature and wind against each served model's forecast for the same
 *             hours (GET /forecast/point/{product}/v2.9/{lat}/{lon}); models listed in the setting
 *             stationCompareHiddenProducts (SPEC §3) are hidden, each toggled in the legend
 *
 * The view is part of the path (/station/{id}/wind). The header's star keeps the station as a
 * favourite of type station (SPEC §3). An unknown id says so and shows nothing else.
 */

import './station.css';
import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { POINT_ANSWER, pointPath, type PointForecast } from '../../../common/api/forecast.ts';
import { STATION_HISTORY_ANSWER, stationPath, type StationHistory, type StationObservation } from '../../../common/api/stations.ts';
import type { AppState } from '../../state/appState.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { HttpError } from '../../http/httpError.ts';
import { FavStar } from '../favs/FavStar.tsx';
import { timeZoneAt } from '../detail/placeTime.ts';
import type { PanelProps } from '../registry.ts';
import { useStationUnits, WindArrow } from './stationParts.tsx';
import { whyStationMissing, type StationMissing } from './stationMissing.ts';
import { compareSeries, STATION_VIEWS, type CompareQuantity, type StationView } from './stationView.ts';

type Load = { status: 'loading' } | { status: 'ready'; data: StationHistory } | { status: 'missing'; why: StationMissing } | { status: 'error'; message: string };

/** The map zooms in at least this far on the station (a region around it). */
const STATION_ZOOM = 6;
/** Rows of the basic view at most (three days of hourly reports and specials). */
const MAX_ROWS = 120;

const isView = (s: unknown): s is StationView => typeof s === 'string' && (STATION_VIEWS as readonly string[]).includes(s);

export default function StationPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t, i18n } = useTranslation('station');
  const { t: tc } = useTranslation();
  const id = typeof params.id === 'string' ? params.id.toUpperCase() : '';
  const view: StationView = isView(params.view) ? params.view : 'basic';
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    setLoad({ status: 'loading' });
    fetchAnswer(STATION_HISTORY_ANSWER, stationPath(id), { signal: abort.signal }).then(
      (data) => {
        setLoad({ status: 'ready', data });
        // The map shows where the station is.
        app.map.moveTo({ lat: data.station.lat, lon: data.station.lon, zoom: Math.max(app.map.zoom.peek(), STATION_ZOOM) });
      },
      async (error: Error) => {
        if (abort.signal.aborted) return;
        if (!(error instanceof HttpError && error.status === 404)) return setLoad({ status: 'error', message: error.message });
        // Only an abort fails here (what cannot be read counts as "not found"): then the window is gone.
        const why = await whyStationMissing(abort.signal).catch((): StationMissing | null => (abort.signal.aborted ? null : { key: 'notFound' }));
        if (why && !abort.signal.aborted) setLoad({ status: 'missing', why });
      },
    );
    return () => abort.abort();
  }, [id, app]);

  const station = load.status === 'ready' ? load.data.station : null;
  const timeZone = station ? timeZoneAt(station.lat, station.lon) : 'UTC';
  const units = useStationUnits(app);
  const time = useMemo(() => new Intl.DateTimeFormat(i18n.language, {
    timeZone, weekday: 'short', hour: 'numeric', minute: '2-digit', hour12: units.hour12,
  }), [i18n.language, timeZone, units.hour12]);
  const choose = (v: StationView) => void app.router.navigate(`/station/${encodeURIComponent(id)}${v === 'basic' ? '' : `/${v}`}`);

  return (
    <div className="station" data-testid="station" data-view={view} data-station={id}>
      <header className="station-head">
        <div>
          <h2 data-testid="station-title">{station ? station.name : id}</h2>
          {station && (
            <div className="station-facts">
              <span>{station.id}</span>
              <span>{station.lat.toFixed(3)}, {station.lon.toFixed(3)}</span>
              {station.elevation !== null && <span title={t('elevation')}>{units.format('altitude', station.elevation)}</span>}
              <span>{timeZone}</span>
            </div>
          )}
        </div>
        {station && <FavStar lat={station.lat} lon={station.lon} title={station.name} station={station.id} />}
        <button type="button" className="station-close" onClick={close} aria-label={t('close')} data-testid="station-close">×</button>
      </header>
      {load.status === 'loading' && <p className="station-message" role="status">{tc('app.loading')}</p>}
      {load.status === 'missing' && (
        <p className="station-message" role="alert" data-testid="station-not-found" data-problem={load.why.key}>
          {t(load.why.key, { id, source: load.why.source?.label, minutes: load.why.source?.minutes })}
        </p>
      )}
      {load.status === 'error' && <p className="station-message" role="alert">{t('loadError', { message: load.message })}</p>}
      {load.status === 'ready' && (
        <>
          <div className="station-tabs" role="tablist" aria-label={t('views')}>
            {STATION_VIEWS.map((v) => (
              <button key={v} type="button" role="tab" aria-selected={v === view} className={v === view ? 'active' : ''} data-view={v} onClick={() => choose(v)}>
                {t(`view.${v}`)}
              </button>
            ))}
          </div>
          {load.data.observations.length === 0 && <p className="station-message">{t('noObservations')}</p>}
          {load.data.observations.length > 0 && view === 'basic' && <BasicTable observations={load.data.observations} time={time} units={units} />}
          {load.data.observations.length > 0 && view === 'wind' && <WindChart observations={load.data.observations} time={time} units={units} />}
          {load.data.observations.length > 0 && view === 'compare' && <Compare app={app} history={load.data} time={time} units={units} />}
          {station?.attribution && <p className="station-credit">{t('source', { attribution: station.attribution })}</p>}
        </>
      )}
    </div>
  );
}

type Units = ReturnType<typeof useStationUnits>;

function BasicTable({ observations, time, units }: { observations: readonly StationObservation[]; time: Intl.DateTimeFormat; units: Units }) {
  const { t } = useTranslation('station');
  const rows = [...observations].reverse().slice(0, MAX_ROWS);
  return (
    <div className="station-scroll">
      <table className="station-table" data-testid="station-table">
        <thead>
          <tr>
            <th>{t('col.time')}</th>
            <th>{t('col.temp')} <small>{units.unit('temp')}</small></th>
            <th>{t('col.dewpoint')} <small>{units.unit('temp')}</small></th>
            <th>{t('col.wind')} <small>{units.unit('wind')}</small></th>
            <th>{t('col.gust')} <small>{units.unit('wind')}</small></th>
            <th>{t('col.pressure')} <small>{units.unit('pressure')}</small></th>
            <th>{t('col.rh')} <small>%</small></th>
            <th>{t('col.weather')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((o) => (
            <tr key={o.time} data-testid="station-row" title={o.raw}>
              <td>{time.format(o.time)}</td>
              <td>{units.format('temp', o.temp).replace(/\s*°[CF]$/, '')}</td>
              <td>{units.format('temp', o.dewpoint).replace(/\s*°[CF]$/, '')}</td>
              <td className="station-wind">
                <WindArrow from={o.windDir} />
                {o.windDir !== null && <small>{Math.round(o.windDir)}°</small>} {numberOnly(units.format('wind', o.wind))}
              </td>
              <td>{numberOnly(units.format('wind', o.gust))}</td>
              <td>{numberOnly(units.format('pressure', o.pressure))}</td>
              <td>{o.rh === null ? '—' : Math.round(o.rh)}</td>
              <td>{o.weather ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "12 kt" -> "12": the unit is in the column's head. */
const numberOnly = (text: string) => text.replace(/\s*[^\d.,−-]+$/, '');

const CHART_W = 640;
const CHART_H = 200;
const PAD = { left: 40, right: 12, top: 24, bottom: 28 };

function scale(values: number[], times: number[]) {
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const lo = Math.min(0, ...values);
  const hi = Math.max(lo + 1, ...values) * 1.1;
  const x = (t: number) => PAD.left + (t1 === t0 ? (CHART_W - PAD.left - PAD.right) / 2 : ((t - t0) / (t1 - t0)) * (CHART_W - PAD.left - PAD.right));
  const y = (v: number) => CHART_H - PAD.bottom - ((v - lo) / (hi - lo)) * (CHART_H - PAD.top - PAD.bottom);
  return { x, y, lo, hi, t0, t1 };
}

const line = (points: [number, number][]) => points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join('');

function Axes({ s, time, unit, ticks }: { s: ReturnType<typeof scale>; time: Intl.DateTimeFormat; unit: string; ticks: number[] }) {
  return (
    <g className="station-axes">
      {ticks.map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={CHART_W - PAD.right} y1={s.y(v)} y2={s.y(v)} />
          <text x={PAD.left - 4} y={s.y(v) + 4} textAnchor="end">{Math.round(v)}</text>
        </g>
      ))}
      <text x={4} y={12}>{unit}</text>
      <text x={PAD.left} y={CHART_H - 8}>{time.format(s.t0)}</text>
      {s.t1 !== s.t0 && <text x={CHART_W - PAD.right} y={CHART_H - 8} textAnchor="end">{time.format(s.t1)}</text>}
    </g>
  );
}

const ticksOf = (lo: number, hi: number) => {
  const step = [1, 2, 5, 10, 20, 50].find((s) => (hi - lo) / s <= 6) ?? 100;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
};

function WindChart({ observations, time, units }: { observations: readonly StationObservation[]; time: Intl.DateTimeFormat; units: Units }) {
  const { t } = useTranslation('station');
  const points = observations.filter((o) => o.wind !== null);
  if (points.length === 0) return <p className="station-message">{t('noWind')}</p>;
  const wind = points.map((o) => units.value('wind', o.wind!));
  const gusts = points.map((o) => (o.gust === null ? null : units.value('wind', o.gust)));
  const s = scale([...wind, ...gusts.filter((g): g is number => g !== null)], points.map((o) => o.time));
  const gustPoints = points.flatMap((o, i) => (gusts[i] === null ? [] : [[s.x(o.time), s.y(gusts[i]!)] as [number, number]]));
  return (
    <figure className="station-chart" data-testid="station-wind-chart">
      <svg viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={t('view.wind')}>
        <Axes s={s} time={time} unit={units.unit('wind')} ticks={ticksOf(s.lo, s.hi)} />
        <path d={line(points.map((o, i) => [s.x(o.time), s.y(wind[i])]))} className="station-line wind" />
        {gustPoints.length > 1 && <path d={line(gustPoints)} className="station-line gust" />}
        {points.map((o, i) => <circle key={o.time} cx={s.x(o.time)} cy={s.y(wind[i])} r={3} className="station-dot wind" />)}
        {gustPoints.map(([x, y]) => <circle key={`g${x}`} cx={x} cy={y} r={3} className="station-dot gust" />)}
        {points.map((o) => (o.windDir === null ? null : (
          <path key={`a${o.time}`} d="M0 -7 L4 4 L0 2 L-4 4 Z" className="station-dir"
            transform={`translate(${s.x(o.time).toFixed(1)},${PAD.top - 10}) rotate(${(o.windDir + 180) % 360})`} />
        )))}
      </svg>
      <figcaption>
        <span className="station-key wind" /> {t('col.wind')} <span className="station-key gust" /> {t('col.gust')} · {t('legend.direction')}
      </figcaption>
    </figure>
  );
}

/** Colours of the models' lines, in the order of the served list. */
const MODEL_COLOURS = ['#e6550d', '#3182bd', '#31a354', '#756bb1', '#d6616b', '#8c6d31', '#17becf', '#bcbd22'];

function Compare({ app, history, time, units }: { app: AppState; history: StationHistory; time: Intl.DateTimeFormat; units: Units }) {
  useSignals();
  const { t } = useTranslation('station');
  const served = app.data.served.value.map((p) => p.ident);
  const hidden = app.settings.get('stationCompareHiddenProducts') as string[];
  const { lat, lon } = history.station;
  const [forecasts, setForecasts] = useState<Map<string, PointForecast | 'none'>>(new Map());
  const [quantity, setQuantity] = useState<CompareQuantity>('temp');
  const servedKey = served.join(',');

  useEffect(() => {
    const abort = new AbortController();
    setForecasts(new Map());
    for (const product of servedKey ? servedKey.split(',') : []) {
      fetchAnswer(POINT_ANSWER, pointPath(product, lat, lon), { signal: abort.signal }).then(
        (f) => setForecasts((m) => new Map(m).set(product, f)),
        () => { if (!abort.signal.aborted) setForecasts((m) => new Map(m).set(product, 'none')); },
      );
    }
    return () => abort.abort();
  }, [servedKey, lat, lon]);

  const shown = new Map([...forecasts].filter((e): e is [string, PointForecast] => e[1] !== 'none' && !hidden.includes(e[0])));
  const { times, observed, models } = compareSeries(history.observations, shown, quantity);
  const metric = quantity === 'temp' ? 'temp' : 'wind';
  const v = (base: number | null) => (base === null ? null : units.value(metric, base));
  const all = [...observed, ...models.flatMap((m) => m.values)].map(v).filter((x): x is number => x !== null);
  const s = all.length ? scale(all, times) : null;
  if (s && quantity === 'temp') {
    // Temperatures need not start at zero.
    const lo = Math.min(...all) - 1;
    const hi = Math.max(...all) + 1;
    s.lo = lo;
    s.hi = hi;
    s.y = (value: number) => CHART_H - PAD.bottom - ((value - lo) / (hi - lo)) * (CHART_H - PAD.top - PAD.bottom);
  }
  const colour = (product: string) => MODEL_COLOURS[Math.max(0, served.indexOf(product)) % MODEL_COLOURS.length];
  const toggle = (product: string) => {
    const next = hidden.includes(product) ? hidden.filter((p) => p !== product) : [...hidden, product];
    app.settings.set('stationCompareHiddenProducts', next);
  };
  // A difference in the user's unit: the scale of a linear unit without its offset (°F: 9/5 of a
  // kelvin); Beaufort is no linear scale, so its differences are given in m/s.
  const diffUnit = units.unit(metric) === 'bft' ? 'm/s' : units.unit(metric);
  const diff = (base: number | null) => (base === null ? '—' : (diffUnit === 'm/s' && metric === 'wind' ? base : units.value(metric, base) - units.value(metric, 0)).toFixed(1));

  return (
    <div className="station-compare" data-testid="station-compare">
      <div className="station-tabs small" role="group">
        {(['temp', 'wind'] as const).map((q) => (
          <button key={q} type="button" className={q === quantity ? 'active' : ''} aria-pressed={q === quantity} onClick={() => setQuantity(q)}>{t(q === 'temp' ? 'compare.temp' : 'col.wind')}</button>
        ))}
      </div>
      {s && (
        <figure className="station-chart">
          <svg viewBox={`0 0 ${CHART_W} ${CHART_H}`} role="img" aria-label={t('view.compare')}>
            <Axes s={s} time={time} unit={units.unit(metric)} ticks={ticksOf(s.lo, s.hi)} />
            {models.map((m) => {
              const pts = times.flatMap((tm, i) => (m.values[i] === null ? [] : [[s.x(tm), s.y(v(m.values[i])!)] as [number, number]]));
              return pts.length > 1
                ? <path key={m.product} d={line(pts)} className="station-line model" stroke={colour(m.product)} />
                : pts.map(([x, y]) => <circle key={`${m.product}${x}`} cx={x} cy={y} r={3} fill={colour(m.product)} />);
            })}
            <path d={line(times.flatMap((tm, i) => (observed[i] === null ? [] : [[s.x(tm), s.y(v(observed[i])!)] as [number, number]])))} className="station-line observed" />
            {times.map((tm, i) => (observed[i] === null ? null : <circle key={tm} cx={s.x(tm)} cy={s.y(v(observed[i])!)} r={3} className="station-dot observed" />))}
          </svg>
        </figure>
      )}
      <table className="station-table compare" data-testid="station-compare-table">
        <thead>
          <tr><th /><th>{t('compare.model')}</th><th>{t('compare.hours')}</th><th>{t('compare.bias')} <small>{diffUnit}</small></th><th>{t('compare.mae')} <small>{diffUnit}</small></th></tr>
        </thead>
        <tbody>
          <tr><td><span className="station-key observed" /></td><td>{t('compare.observed')}</td><td>{observed.filter((o) => o !== null).length}</td><td /><td /></tr>
          {served.map((product) => {
            const m = models.find((x) => x.product === product);
            const state = forecasts.get(product);
            const off = hidden.includes(product);
            return (
              <tr key={product} data-testid="station-compare-model" data-product={product} className={off ? 'off' : ''}>
                <td><input type="checkbox" checked={!off} onChange={() => toggle(product)} aria-label={t('compare.show', { model: PRODUCTS[product]?.modelName ?? product })} style={{ accentColor: colour(product) }} /></td>
                <td>{PRODUCTS[product]?.modelName ?? product}</td>
                {off ? <td colSpan={3}>{t('compare.hidden')}</td>
                  : state === undefined ? <td colSpan={3}>…</td>
                    : state === 'none' ? <td colSpan={3}>{t('compare.unavailable')}</td>
                      : m && m.count > 0 ? <><td>{m.count}</td><td>{diff(m.meanError)}</td><td>{diff(m.meanAbsError)}</td></>
                        : <td colSpan={3}>{t('compare.noOverlap')}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="station-note">{t('compare.note')}</p>
    </div>
  );
}
