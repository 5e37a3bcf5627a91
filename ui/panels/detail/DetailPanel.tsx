/**
 * The detail window (SPEC §2 route /{lat}/{lon}[/{model}][/{display}], "Detail view"): the point
 * forecast of a place as a table, a meteogram, an airgram, waves, wind or air quality, in 1-hour
 * (Premium) or 3-hour steps, with the place's name, time zone, sunrise and sunset.
 *
 *   header     place name (GET /reverse/v3/...; the coordinates when it has none), coordinates,
 *              time zone and local time, sunrise and sunset, the model's terrain height there
 *              (the point forecast's header.modelElevation, in the user's altitude unit), the model
 *   bar        display tabs (the choice is written into the path), step toggle
 *   body       label column (sticky) | day blocks: day and hour rows, then the display's rows,
 *              or a chart under the time header (charts.tsx)
 *   stations   the nearest weather stations and their latest readings (station/NearestStations.tsx)
 *
 * Opening must not block the main thread for long (issue 4 target: no task over 50 ms): the data
 * comes in one request, the days render a few at a time, the charts are plain SVG.
 */

import './detail.css';
import { memo, startTransition, useEffect, useMemo, useRef, useState, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { METRICS } from '../../../common/catalogue/metrics.ts';
import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { POINT_DISPLAYS, pointPath, type PointDisplay } from '../../../common/routes.ts';
import { COORD_DECIMALS } from '../../../common/url.ts';
import type { LevelForecast, PointForecast } from '../../../common/api/forecast.ts';
import { HttpError } from '../../http/httpError.ts';
import { usePointMark } from '../usePointMark.ts';
import type { PanelProps } from '../registry.ts';
import { FavStar } from '../favs/FavStar.tsx';
import { soundingPath } from '../sounding/soundingPath.ts';
import { NearestStations } from '../station/NearestStations.tsx';
import { WebcamsNearby } from '../webcams/WebcamsNearby.tsx';
import {
  Airgram, airgramBands, COLUMN_WIDTH, Meteogram, meteogramBands, WaveChart, waveBands, WindChart, windBands, type ChartBand,
} from './charts.tsx';
import {
  detailProduct, detailStep, fetchMeteogram, fetchPlaceName, fetchPointForecast, hasHourly, hasValues, nativeStepHours, stepAt, stepIndices,
} from './forecast.ts';
import { groupByLocalDay, isDaylight, placeClock, sunDay, timeZoneAt, type DayGroup, type PlaceClock, type SunDay } from './placeTime.ts';
import { airQualityRows, numberIn, tableRows, waveRows, WeatherDefs, windRows, type Row, type RowContext, type Translate } from './rows.tsx';
import { HOUR_MS } from '../../../common/time.ts';
import { TideSection } from './TideSection.tsx';

type Load<T> = { key: string; status: 'loading' } | { key: string; status: 'ready'; data: T } | { key: string; status: 'error'; error: Error };

/** Days drawn in the first render; the rest follow a few per frame. */
const FIRST_DAYS = 3;
const DAYS_PER_FRAME = 2;
/** Map zoom asked of the reverse geocoder at most (a town's name, not a street's). */
const REVERSE_MAX_ZOOM = 11;

const isDisplay = (s: unknown): s is PointDisplay => typeof s === 'string' && (POINT_DISPLAYS as readonly string[]).includes(s);

export default function DetailPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t: tr, i18n } = useTranslation();
  const t = tr as unknown as Translate;
  const lat = Number(params.lat);
  const lon = Number(params.lon);
  const frame = usePointMark(app, lat, lon);
  const routeModel = typeof params.model === 'string' ? params.model : undefined;
  const display: PointDisplay = isDisplay(params.display) ? params.display : 'table';
  // The map's product, once the map knows which one it shows.
  const mapShows = app.data.calendarProduct.value ?? (app.data.status.value === 'error' ? app.layer.product.value : null);
  const servedList = app.data.served.value;
  const choice = detailProduct({
    model: routeModel,
    mapProduct: mapShows,
    // The product list answered (its products), or failed (empty): known once the data model is no longer starting.
    served: servedList.length || app.data.status.value !== 'loading' ? servedList.map((p) => p.ident) : null,
    local: app.data.local.value?.ident ?? null,
  });
  const { product } = choice;
  // A model the server does not serve is not written into the paths of the display tabs.
  const model = choice.reverted ? undefined : routeModel;
  const productDef = product ? PRODUCTS[product] : undefined;
  const hour12 = app.units.hour12.value;
  const units = app.units.units.value;
  const premium = app.settings.get('subscription') === 'premium';
  const wants1h = app.settings.get('detail1h') === true;
  // Only a subscriber's requests carry the token: a free answer is the same for everyone.
  const premiumToken = premium ? (app.settings.get('userToken') as string | null) : null;
  const mapProduct = app.layer.product.value;
  const timestamp = app.timeline.timestamp.value;

  const key = product ? `${product}/${lat}/${lon}` : '';
  const [reload, setReload] = useState(0);
  // SPEC §4 Connection: back online, a forecast that failed to load loads again (settings key 'connection').
  const online = app.settings.signal('connection').value !== false;
  const wasOnline = useRef(online);
  const [point, setPoint] = useState<Load<PointForecast> | null>(null);
  const [levels, setLevels] = useState<Load<LevelForecast> | null>(null);
  const [name, setName] = useState<{ key: string; name: string | null } | null>(null);

  useEffect(() => {
    if (!product) return;
    const abort = new AbortController();
    setPoint({ key, status: 'loading' });
    fetchPointForecast(product, lat, lon, abort.signal, premiumToken).then(
      // A transition: React renders the table in slices and yields to input and frames between them.
      (data) => startTransition(() => setPoint({ key, status: 'ready', data })),
      (error: Error) => {
        if (!abort.signal.aborted) setPoint({ key, status: 'error', error });
      },
    );
    return () => abort.abort();
  }, [key, product, lat, lon, reload, premiumToken]);

  useEffect(() => {
    if (!product || display !== 'airgram' || levels?.key === key) return;
    const abort = new AbortController();
    setLevels({ key, status: 'loading' });
    fetchMeteogram(product, lat, lon, abort.signal, premiumToken).then(
      (data) => startTransition(() => setLevels({ key, status: 'ready', data })),
      (error: Error) => {
        if (!abort.signal.aborted) setLevels({ key, status: 'error', error });
      },
    );
    return () => abort.abort();
  }, [key, display, reload]);

  const failed = point?.key === key && point.status === 'error';
  useEffect(() => {
    if (online && !wasOnline.current && failed) setReload((n) => n + 1);
    wasOnline.current = online;
  }, [online, failed]);

  const placeKey = `${lat}/${lon}/${i18n.language}`;
  useEffect(() => {
    const abort = new AbortController();
    const zoom = Math.min(REVERSE_MAX_ZOOM, app.map.zoom.peek());
    void fetchPlaceName(lat, lon, zoom, i18n.language, abort.signal).then((n) => {
      if (!abort.signal.aborted) setName({ key: placeKey, name: n });
    });
    return () => abort.abort();
  }, [app, lat, lon, i18n.language, placeKey]);

  const timeZone = useMemo(() => timeZoneAt(lat, lon), [lat, lon]);
  const clock = useMemo(() => placeClock(timeZone, i18n.language, hour12), [timeZone, i18n.language, hour12]);
  const forecast = point?.key === key && point.status === 'ready' ? point.data : null;

  // The steps shown: SPEC §9 3 h, 1 h for Premium, where the model is hourly at all.
  const single = !!forecast && forecast.ts.length < 2;
  const hourly = forecast ? !single && hasHourly(forecast) : true;
  const step = hourly ? detailStep(premium, wants1h) : 1;
  const cols = useMemo(() => (forecast ? stepIndices(forecast.ts, forecast.header.refTime, step) : []), [forecast, step]);
  const colTs = useMemo(() => (forecast ? cols.map((k) => forecast.ts[k]) : []), [forecast, cols]);
  const days = useMemo(() => groupByLocalDay(colTs, timeZone), [colTs, timeZone]);
  const suns = useMemo(() => days.map((d) => sunDay(d.first, lat, lon, timeZone)), [days, lat, lon, timeZone]);
  const daylight = useMemo(() => {
    const out = new Map<number, boolean>();
    for (const k of cols) out.set(k, isDaylight(forecast!.ts[k], lat, lon));
    return out;
  }, [forecast, cols, lat, lon]);

  // The column of the map's time (of now, for another model than the map's).
  const sameProduct = product === mapProduct;
  const at = sameProduct ? timestamp : Date.now();
  const current = colTs.length && at >= colTs[0] && at <= colTs[colTs.length - 1] + step * HOUR_MS ? stepAt(colTs, at) : -1;

  const ctx: RowContext | null = useMemo(() => (forecast ? {
    forecast, t, unitOf: (metric: string) => units[metric] ?? '', daylight: (k: number) => daylight.get(k) ?? true,
  } : null), [forecast, t, units, daylight]);
  const rows = useMemo(() => {
    if (!ctx) return [];
    switch (display) {
      case 'table': return tableRows(ctx);
      case 'wind': return windRows(ctx);
      case 'waves': return waveRows(ctx);
      case 'airq': return airQualityRows(ctx);
      default: return [];
    }
  }, [ctx, display]);

  // Days render a few at a time; the first ones at once.
  const [limit, setLimit] = useState(FIRST_DAYS);
  const layoutKey = `${key}/${step}/${display}`;
  const [limitKey, setLimitKey] = useState(layoutKey);
  if (limitKey !== layoutKey) {
    setLimitKey(layoutKey);
    setLimit(FIRST_DAYS);
  }
  useEffect(() => {
    if (limit >= days.length) return;
    const handle = setTimeout(() => startTransition(() => setLimit((l) => l + DAYS_PER_FRAME)), 16);
    return () => clearTimeout(handle);
  }, [limit, days.length]);

  // Bring the current column into view when a forecast arrives.
  const scroller = useRef<HTMLDivElement>(null);
  const scrolledFor = useRef('');
  useEffect(() => {
    if (!forecast || !scroller.current || scrolledFor.current === layoutKey) return;
    scrolledFor.current = layoutKey;
    scroller.current.scrollLeft = Math.max(0, (current - 2) * COLUMN_WIDTH);
  }, [forecast, layoutKey, current]);

  const choose = (next: PointDisplay) => void app.router.navigate(pointPath(lat, lon, model, next === 'table' ? undefined : next));
  const onColumn = (e: MouseEvent) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-ts]');
    if (!cell || !sameProduct) return;
    app.timeline.setTimestamp(Number(cell.dataset.ts));
  };

  const coords = `${lat.toFixed(COORD_DECIMALS)}, ${lon.toFixed(COORD_DECIMALS)}`;
  const title = name?.key === placeKey && name.name ? name.name : coords;
  const sunShown = suns[current >= 0 ? days.findIndex((d) => current >= d.start && current < d.start + d.count) : 0] as SunDay | undefined;

  // ---- the display ----
  let bands: ChartBand[] = [];
  let chart: ReactNode = null;
  let note: string | null = null;
  let unavailable: string | null = null;
  if (forecast && ctx) {
    const chartProps = { forecast, cols, unitOf: ctx.unitOf, t, current };
    switch (display) {
      case 'meteogram':
        bands = meteogramBands(chartProps);
        if (bands.length) {
          chart = <Meteogram {...chartProps} />;
          note = t('detail:meteogram.legend');
        } else unavailable = t('detail:notAvailable.meteogram');
        break;
      case 'airgram': {
        const levelData = levels?.key === key ? levels : null;
        if (levelData?.status === 'ready' && levelData.data.header.levels.length) {
          bands = airgramBands(levelData.data.header.levels, t);
          chart = <Airgram meteogram={levelData.data} cols={cols} colTs={colTs} unitOf={ctx.unitOf} current={current} t={t} />;
          note = t('detail:airgram.legend');
        } else if (levelData?.status === 'ready') {
          unavailable = t('detail:notAvailable.airgram', { model: productDef?.modelName ?? product });
        } else if (levelData?.status === 'error') {
          unavailable = errorText(levelData.error, t, productDef?.modelName ?? product ?? '');
        }
        break;
      }
      case 'wind':
        if (rows.length) {
          bands = windBands(chartProps);
          chart = <WindChart {...chartProps} />;
          note = t('detail:wind.legend');
        } else unavailable = t('detail:notAvailable.wind');
        break;
      case 'waves':
        if (hasValues(forecast.data.waves)) {
          bands = waveBands(chartProps);
          chart = <WaveChart {...chartProps} />;
          note = t('detail:waves.legend');
        } else unavailable = t('detail:notAvailable.waves');
        break;
      case 'airq':
        // The note explains the US EPA index made from PM; the stored European AQI row names its tiers.
        if (rows.some((r) => r.id === 'aqi' && r.metric !== 'aqi')) note = t('detail:airq.legend');
        else if (!rows.length) unavailable = t('detail:notAvailable.airq');
        break;
      default:
        // A phone has the height for the meteogram under the table.
        if (app.mobile()) {
          bands = meteogramBands(chartProps);
          if (bands.length) chart = <Meteogram {...chartProps} />;
        }
        break;
    }
  }
  const shownRows = unavailable ? [] : rows;

  const pointState = point?.key === key ? point : null;
  let body: ReactNode;
  if (!product || !pointState || pointState.status === 'loading') {
    body = <p className="detail-message" role="status">{t('detail:loading')}</p>;
  } else if (pointState.status === 'error') {
    body = (
      <p className="detail-message error" role="alert">
        {errorText(pointState.error, t, productDef?.modelName ?? product)}
        {!(pointState.error instanceof HttpError && pointState.error.status === 404) && (
          <button type="button" onClick={() => setReload((n) => n + 1)}>{t('detail:retry')}</button>
        )}
      </p>
    );
  } else {
    body = (
      <>
        <div className="detail-scroll" ref={scroller}>
          <div className="detail-labels">
            <div className="detail-row r-day" />
            <div className="detail-row r-hour" title={t('detail:place.timesIn', { zone: clock.zone(colTs[0] ?? Date.now()) })}>{clock.zone(colTs[0] ?? Date.now()).split(', ')[1]}</div>
            {shownRows.map((row) => (
              <RowLabel key={row.id} className={`r-${row.kind}`} label={row.label} unit={row.unit} metric={row.metric} onUnit={(m) => app.units.cycle(m)} t={t} />
            ))}
            {!unavailable && bands.map((band) => (
              <RowLabel key={band.id} className="band" style={{ height: band.height }} label={band.label} unit={band.unit} metric={band.metric} onUnit={(m) => app.units.cycle(m)} t={t} />
            ))}
          </div>
          <div className="detail-content" style={{ width: cols.length * COLUMN_WIDTH }} onClick={onColumn} title={sameProduct ? t('detail:showOnMap') : undefined}
            data-testid={display === 'table' ? 'detail-table' : `detail-${display}-view`}>
            <div className="detail-days">
              {days.map((day, d) => (
                <DayBlock key={day.day} day={day} sun={suns[d]} colTs={colTs} cols={cols} rows={shownRows} clock={clock} t={t}
                  current={current >= day.start && current < day.start + day.count ? current : -1} drawn={d < limit}
                  daylight={daylight} />
              ))}
            </div>
            {unavailable ? null : chart}
          </div>
        </div>
        {unavailable && <p className="detail-message" data-testid="detail-unavailable">{unavailable}</p>}
        {!unavailable && display === 'airgram' && !chart && <p className="detail-message" role="status">{t('detail:loading')}</p>}
      </>
    );
  }

  const steps = forecast ? nativeStepHours(forecast.ts) : 1;
  return (
    <div ref={frame} className="detail" data-testid="detail" data-product={product ?? ''} data-display={display} data-step={step} data-timezone={timeZone}
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}>
      <WeatherDefs />
      <header className="detail-head">
        <div className="detail-place">
          <h2 data-testid="detail-title">{title}</h2>
          <div className="detail-facts">
            {title !== coords && <span data-testid="detail-coords">{coords}</span>}
            <span data-testid="detail-zone" title={t('detail:place.timeZone')}>{clock.zone(Date.now())} · {t('detail:place.localTime')} {clock.time(Date.now())}</span>
            {sunShown && <SunFacts sun={sunShown} clock={clock} t={t} />}
            {forecast && !forecast.header.demo && <ElevationFact metres={forecast.header.modelElevation} unit={units.altitude ?? 'm'} t={t} />}
            {/* The place's sounding (SPEC §2 /sounding/{lat}/{lon}) from the model's pressure levels, in the
                right pane: the forecast below would cover most of it, so it closes. */}
            <a href={soundingPath(lat, lon)} className="detail-sounding" data-testid="detail-sounding"
              onClick={(e) => {
                e.preventDefault();
                close();
                void app.router.navigate(soundingPath(lat, lon));
              }}>{t('detail:sounding')}</a>
          </div>
        </div>
        <div className="detail-model">
          {forecast?.header.demo
            ? <span className="detail-badge demo" title={t('detail:place.demo')}>{t('app.demoData')}</span>
            : <span title={t('detail:place.model')}>{productDef?.modelName ?? product ?? ''}</span>}
          {forecast?.header.sample && <span className="detail-badge" title={t('detail:place.sample')}>{clock.date(forecast.header.refTime)}</span>}
        </div>
        <FavStar lat={lat} lon={lon} title={title} />
        <button type="button" className="detail-close" onClick={close} aria-label={t('detail:close')} data-testid="detail-close">×</button>
      </header>
      <div className="detail-bar">
        <div className="detail-tabs" role="tablist" aria-label={t('detail:displays.label')}>
          {POINT_DISPLAYS.map((d) => (
            <button key={d} type="button" role="tab" aria-selected={d === display} className={d === display ? 'active' : ''} data-display={d}
              onClick={() => choose(d)}>{t(`detail:displays.${d}`)}</button>
          ))}
        </div>
        <div className="detail-steps" role="group" aria-label={t('detail:step.label')}>
          {single ? (
            <span className="detail-hint">{t('detail:step.single')}</span>
          ) : hourly ? (
            <>
              <button type="button" data-testid="detail-step-1" className={step === 1 ? 'active' : ''} disabled={!premium} aria-pressed={step === 1}
                title={premium ? undefined : t('detail:step.premiumHint')} onClick={() => app.settings.set('detail1h', true)}>
                {t('detail:step.1h')}{!premium && <span className="detail-premium" aria-hidden="true">★</span>}
              </button>
              <button type="button" data-testid="detail-step-3" className={step === 3 ? 'active' : ''} aria-pressed={step === 3}
                onClick={() => app.settings.set('detail1h', false)}>{t('detail:step.3h')}</button>
              {!premium && <span className="detail-hint">{t('detail:step.premiumHint')}</span>}
            </>
          ) : (
            <span className="detail-hint">{t('detail:step.nativeHint', { hours: steps })}</span>
          )}
        </div>
      </div>
      {choice.reverted && <p className="detail-message detail-reverted" role="status" data-testid="detail-reverted">{t('product.unavailableHere', choice.reverted)}</p>}
      {body}
      {note && !unavailable && <p className="detail-note">{note}</p>}
      <TideSection lat={lat} lon={lon} timeZone={timeZone} clock={clock} token={premiumToken} unit={units.waves ?? 'm'}
        openSubscription={() => void app.router.navigate('/subscription')} />
      <NearestStations app={app} lat={lat} lon={lon} />
      <WebcamsNearby app={app} lat={lat} lon={lon} />
    </div>
  );
}

function errorText(error: Error, t: Translate, model: string): string {
  // SPEC §8: "Data not available for this location"; "Error loading forecast for {{model}}".
  if (error instanceof HttpError && error.status === 404 && /not available for this location/i.test(error.message)) return t('detail:dataNotAvailable');
  return t('detail:loadError', { model });
}

function SunFacts({ sun, clock, t }: { sun: SunDay; clock: PlaceClock; t: Translate }) {
  if (sun.polar) return <span data-testid="detail-sun">{t(sun.polar === 'day' ? 'detail:place.polarDay' : 'detail:place.polarNight')}</span>;
  return (
    <span data-testid="detail-sun">
      <span title={t('detail:place.sunrise')}>☀↑ {sun.sunrise === null ? '—' : clock.time(sun.sunrise)}</span>
      {' '}
      <span title={t('detail:place.sunset')}>↓ {sun.sunset === null ? '—' : clock.time(sun.sunset)}</span>
    </span>
  );
}

/**
 * The model's terrain height at the place (its grid's smoothed ground, not the place's own height),
 * or that the model has none. The demo product shows neither: its badge says it is generated.
 */
function ElevationFact({ metres, unit, t }: { metres: number | undefined; unit: string; t: Translate }) {
  if (metres === undefined) return <span data-testid="detail-elevation">{t('detail:noElevation')}</span>;
  const def = METRICS.altitude.conv[unit] ?? METRICS.altitude.conv.m;
  return (
    <span className="detail-elevation" data-testid="detail-elevation" data-value={metres} title={t('detail:place.modelElevationHint')}>
      {t('detail:place.modelElevation', { value: `${numberIn('altitude', unit, metres)}\u00a0${def.label}` })}
    </span>
  );
}

function RowLabel({ label, unit, metric, onUnit, className, style, t }: {
  label: string; unit?: string; metric?: string; onUnit(metric: string): void; className?: string; style?: CSSProperties; t: Translate;
}) {
  return (
    <div className={`detail-row detail-label ${className ?? ''}`} style={style}>
      <span>{label}</span>
      {unit && (metric ? (
        <button type="button" className="detail-unit" onClick={() => onUnit(metric)} title={t('detail:changeUnit')}>{unit}</button>
      ) : <span className="detail-unit">{unit}</span>)}
    </div>
  );
}

function HourCell({ ts, clock, now, night }: { ts: number; clock: PlaceClock; now: boolean; night: boolean }) {
  const { hour, period } = clock.hourParts(ts);
  return (
    <div className={`detail-cell${now ? ' now' : ''}${night ? ' night' : ''}`} data-ts={ts}>
      {hour}{period && <small> {period}</small>}
    </div>
  );
}

interface DayBlockProps {
  day: DayGroup;
  sun: SunDay;
  colTs: readonly number[];
  cols: readonly number[];
  rows: readonly Row[];
  clock: PlaceClock;
  t: Translate;
  /** The current column if it is in this day, else -1. */
  current: number;
  /** False: an empty block of the right width (drawn a frame later). */
  drawn: boolean;
  /** Daylight by forecast index (night hours are shaded). */
  daylight: ReadonlyMap<number, boolean>;
}

/** One local day: its name (with sunrise and sunset where it is wide enough), its hours, its rows. */
const DayBlock = memo(function DayBlock({ day, sun, colTs, cols, rows, clock, t, current, drawn, daylight }: DayBlockProps) {
  const width = day.count * COLUMN_WIDTH;
  const indices = Array.from({ length: day.count }, (_, i) => day.start + i);
  const sunText = sun.polar ? t(sun.polar === 'day' ? 'detail:place.polarDay' : 'detail:place.polarNight')
    : `${t('detail:place.sunrise')} ${sun.sunrise === null ? '—' : clock.time(sun.sunrise)}, ${t('detail:place.sunset')} ${sun.sunset === null ? '—' : clock.time(sun.sunset)}`;
  return (
    <div className="detail-day" style={{ width }} data-day={day.day}>
      <div className="detail-row r-day" title={`${clock.day(day.first)} · ${sunText}`}>
        <span className="detail-dayname">{clock.day(day.first)}</span>
        {width >= 200 && !sun.polar && sun.sunrise !== null && sun.sunset !== null && (
          <span className="detail-daysun">☀ {clock.time(sun.sunrise)}–{clock.time(sun.sunset)}</span>
        )}
      </div>
      <div className="detail-row r-hour">
        {indices.map((c) => (
          <HourCell key={c} ts={colTs[c]} clock={clock} now={c === current} night={daylight.get(cols[c]) === false} />
        ))}
      </div>
      {drawn ? rows.map((row) => (
        <div key={row.id} className={`detail-row r-${row.kind}`} data-row={row.id}>
          {indices.map((c) => {
            const cell = row.cell(cols[c]);
            return (
              <div key={c} className={`detail-cell${c === current ? ' now' : ''}`} data-ts={colTs[c]} data-col={c}
                data-value={cell.value ?? ''} title={cell.title} style={cell.background ? { background: cell.background } : undefined}>
                {cell.text}
              </div>
            );
          })}
        </div>
      )) : rows.map((row) => <div key={row.id} className={`detail-row r-${row.kind}`} />)}
    </div>
  );
});
