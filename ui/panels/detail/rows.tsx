/**
 * The rows of the detail window's displays: one definition per quantity, reading a point forecast
 * column by column in the user's units. Cells carry their base value (data-value) so a test can
 * compare a cell with the point API and with the map's picker.
 */

import type { ReactNode } from 'react';
import { aqiClass, eaqiTier, snowDepthText } from '../../../common/catalogue/classes.ts';
import { WAVE_FAMILIES, type WaveFamily } from '../../../common/catalogue/variables.ts';
import { AIR_QUALITY_COLORS, COLOR_SCALES, colorAt, type Rgba } from '../../../common/catalogue/colors.ts';
import { METRICS } from '../../../common/catalogue/metrics.ts';
import type { PointForecast } from '../../../common/api/forecast.ts';
import { aqiOf, hasValues, weatherSymbol, windSeries, type WeatherSymbol } from './forecast.ts';

export type RowKind = 'weather' | 'num' | 'wind' | 'aqi';

export interface Cell {
  text: ReactNode;
  title?: string;
  /** Base-unit value (data-value). */
  value?: number | null;
  background?: string;
}

export interface Row {
  id: string;
  kind: RowKind;
  label: string;
  /** The metric whose unit the label shows (a click cycles it). */
  metric?: string;
  unit?: string;
  /** Cell of forecast index k. */
  cell(k: number): Cell;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A base value as a number in the user's unit (no unit label: the row's label has it). */
export function numberIn(metric: string, unit: string, base: number | null | undefined): string {
  if (base === null || base === undefined || !Number.isFinite(base)) return '';
  const m = METRICS[metric];
  const def = m.conv[unit] ?? m.conv[m.units[0]];
  return def.to(base).toFixed(def.precision).replace(/^-(0\.?0*)$/, '$1');
}

const tint = (rgba: Rgba, alpha: number) => `rgba(${Math.round(rgba[0])}, ${Math.round(rgba[1])}, ${Math.round(rgba[2])}, ${alpha})`;
const scaled = (scale: string, value: number | null | undefined, alpha = 0.6) =>
  value === null || value === undefined || !Number.isFinite(value) ? undefined : tint(colorAt(COLOR_SCALES[scale], value), alpha);

/** An arrow pointing where the wind blows (it comes from `from`). */
export function WindArrow({ from, size = 14 }: { from: number; size?: number }) {
  return (
    <svg className="detail-arrow" width={size} height={size} viewBox="-8 -8 16 16" aria-hidden="true" style={{ transform: `rotate(${Math.round(from)}deg)` }}>
      <path d="M0 7L-4.5 0.5H-1.5V-7H1.5V0.5H4.5Z" fill="currentColor" />
    </svg>
  );
}

/** Weather symbols, drawn once per window (WeatherDefs) and used per cell. */
export function WeatherDefs() {
  return (
    <svg width="0" height="0" style={{ position: 'absolute' }} aria-hidden="true">
      <defs>
        <g id="detail-sun"><circle r="4.2" fill="#ffd24a" /><path d="M0-8v2M0 6v2M-8 0h2M6 0h2M-5.7-5.7l1.4 1.4M4.3 4.3l1.4 1.4M-5.7 5.7l1.4-1.4M4.3-4.3l1.4-1.4" stroke="#ffd24a" strokeWidth="1.4" strokeLinecap="round" /></g>
        <g id="detail-moon"><path d="M2.5-6.5A6.5 6.5 0 1 0 6.5 3 5 5 0 0 1 2.5-6.5z" fill="#d9e2f2" /></g>
        <path id="detail-cloud" d="M-5.5 5a3.5 3.5 0 0 1 0-7 5 5 0 0 1 9.5-1.2A3.8 3.8 0 0 1 4.6 5z" />
        <g id="detail-drops"><path d="M-4 7l-1 2.5M0 7l-1 2.5M4 7l-1 2.5" stroke="#5fb4ff" strokeWidth="1.5" strokeLinecap="round" /></g>
        <g id="detail-flakes"><path d="M-4 8h.1M0 8.5h.1M4 8h.1" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" /></g>
      </defs>
    </svg>
  );
}

function WeatherIcon({ symbol, day, title }: { symbol: WeatherSymbol; day: boolean; title: string }) {
  const body = day ? '#detail-sun' : '#detail-moon';
  const parts: ReactNode[] = [];
  switch (symbol) {
    case 'clear':
      parts.push(<use key="b" href={body} />);
      break;
    case 'fewClouds':
      parts.push(<use key="b" href={body} transform="translate(-2 -2)" />, <use key="c" href="#detail-cloud" fill="#e7edf5" transform="translate(3 3) scale(0.6)" />);
      break;
    case 'partlyCloudy':
      parts.push(<use key="b" href={body} transform="translate(-3 -3) scale(0.9)" />, <use key="c" href="#detail-cloud" fill="#e7edf5" transform="translate(2 2) scale(0.85)" />);
      break;
    case 'cloudy':
      parts.push(<use key="c" href="#detail-cloud" fill="#c4cedb" />);
      break;
    case 'overcast':
      parts.push(<use key="c2" href="#detail-cloud" fill="#8d99a8" transform="translate(2 -3) scale(0.8)" />, <use key="c" href="#detail-cloud" fill="#a9b4c2" transform="translate(-1 1)" />);
      break;
    default: {
      const heavy = symbol === 'heavyRain' || symbol === 'rain';
      parts.push(
        <use key="c" href="#detail-cloud" fill={heavy ? '#8d99a8' : '#c4cedb'} transform="translate(0 -2)" />,
        <use key="p" href={symbol === 'snow' ? '#detail-flakes' : '#detail-drops'} transform={symbol === 'heavyRain' ? 'translate(0 -1) scale(1.15)' : 'translate(0 -1)'} />,
      );
    }
  }
  return (
    <svg className="detail-symbol" width="24" height="24" viewBox="-10 -10 20 20" role="img" aria-label={title}>
      <title>{title}</title>
      {parts}
    </svg>
  );
}

export interface RowContext {
  forecast: PointForecast;
  unitOf(metric: string): string;
  t: Translate;
  /** Daylight per forecast index. */
  daylight(k: number): boolean;
}

/**
 * A plain number row of one series; null when the forecast has no value of it. `label` is an i18n
 * key (default `detail:rows.{id}`); `text` may replace the number (snow depth's "> 5 m").
 */
function seriesRow(
  ctx: RowContext, id: string, series: string, metric: string,
  options: { scale?: string; hideZero?: boolean; label?: string; text?: (base: number, number: string) => string } = {},
): Row | null {
  const values = ctx.forecast.data[series];
  if (!hasValues(values)) return null;
  const unit = ctx.unitOf(metric);
  return {
    id, kind: 'num', label: ctx.t(options.label ?? `detail:rows.${id}`), metric, unit,
    cell(k) {
      const v = values[k];
      const number = numberIn(metric, unit, v);
      const text = options.text && v !== null && v !== undefined && Number.isFinite(v) ? options.text(v, number) : number;
      const hidden = options.hideZero && Number(text) === 0;
      return { text: hidden ? '' : text, value: v, background: options.scale && !hidden ? scaled(options.scale, v) : undefined };
    },
  };
}

/**
 * deep-water group velocity c_g = g T / (4 pi) (server/ingest/modelFields.ts): the flow's speed
 * gives the period back, its direction where the waves travel to.
 */
const G0 = 9.80665;

/** A wave family's row: its height, an arrow where the waves travel, the period and "from" direction in the title. */
function waveFamilyRow(ctx: RowContext, family: WaveFamily): Row | null {
  const heights = ctx.forecast.data[family];
  if (!hasValues(heights)) return null;
  const u = ctx.forecast.data[`${family}Flow_u`];
  const v = ctx.forecast.data[`${family}Flow_v`];
  const unit = ctx.unitOf('waves');
  return {
    id: family, kind: 'wind', label: ctx.t(family === 'waves' ? 'detail:rows.waves' : `overlay.${family}`), metric: 'waves', unit,
    cell(k) {
      const h = heights[k];
      if (h === null || h === undefined || !Number.isFinite(h)) return { text: '', value: null };
      const fu = u?.[k];
      const fv = v?.[k];
      const flow = fu !== null && fu !== undefined && fv !== null && fv !== undefined && Number.isFinite(fu) && Number.isFinite(fv) && (fu !== 0 || fv !== 0);
      const to = flow ? (Math.atan2(fu, fv) * 180) / Math.PI : 0;
      const from = (to + 540) % 360;
      const period = flow ? (4 * Math.PI * Math.hypot(fu, fv)) / G0 : NaN;
      return {
        value: h,
        background: scaled('waves', h, 0.5),
        title: flow ? `${ctx.t('detail:windFrom', { deg: Math.round(from) })}, ${period.toFixed(0)} s` : undefined,
        text: <>{flow && <WindArrow from={from} />}<span>{numberIn('waves', unit, h)}</span>{flow && <small>{` ${period.toFixed(0)} s`}</small>}</>,
      };
    },
  };
}

/** SPEC §9: snow depth above 490 cm shows "More than 5m". */
const snowText = (cm: number, number: string) => (snowDepthText(cm).moreThan5m ? '>5 m' : number);

function windRow(ctx: RowContext): Row | null {
  const winds = windSeries(ctx.forecast.data.wind_u, ctx.forecast.data.wind_v);
  if (!winds.some(Boolean)) return null;
  const unit = ctx.unitOf('wind');
  return {
    id: 'wind', kind: 'wind', label: ctx.t('detail:rows.wind'), metric: 'wind', unit,
    cell(k) {
      const w = winds[k];
      if (!w) return { text: '', value: null };
      return {
        value: w.speed,
        title: ctx.t('detail:windFrom', { deg: Math.round(w.from) }),
        background: scaled('wind', w.speed, 0.5),
        text: <><WindArrow from={w.from} /><span>{numberIn('wind', unit, w.speed)}</span></>,
      };
    },
  };
}

function weatherRow(ctx: RowContext): Row | null {
  const { clouds, rain, temp } = ctx.forecast.data;
  if (!hasValues(clouds) && !hasValues(rain)) return null;
  return {
    id: 'weather', kind: 'weather', label: ctx.t('detail:rows.weather'),
    cell(k) {
      const symbol = weatherSymbol(clouds?.[k] ?? null, rain?.[k] ?? null, temp?.[k] ?? null);
      if (!symbol) return { text: '' };
      const day = ctx.daylight(k);
      const title = day || symbol !== 'clear' ? ctx.t(`detail:symbols.${symbol}`) : ctx.t('detail:symbols.night');
      return { text: <WeatherIcon symbol={symbol} day={day} title={title} />, title };
    },
  };
}

function aqiRow(ctx: RowContext): Row | null {
  const { pm2p5, pm10 } = ctx.forecast.data;
  if (!hasValues(pm2p5) && !hasValues(pm10)) return null;
  return {
    id: 'aqi', kind: 'aqi', label: ctx.t('detail:rows.aqi'),
    cell(k) {
      const indices = [pm2p5?.[k] == null ? NaN : aqiOf('pm2p5', pm2p5[k]!), pm10?.[k] == null ? NaN : aqiOf('pm10', pm10[k]!)].filter(Number.isFinite);
      if (!indices.length) return { text: '' };
      const aqi = Math.max(...indices);
      const tier = aqiClass(aqi);
      const color = AIR_QUALITY_COLORS[tier];
      return { text: String(aqi), value: aqi, title: ctx.t(`airq.tiers.${tier}`), background: tint(color, 0.85) };
    },
  };
}

/**
 * The European AQI the ingest stores (levels 1-6, from all the pollutants the run has): the level,
 * named and coloured as its SPEC §9 tier (classes.ts EAQI_TIERS). Where the forecast has it, it
 * stands instead of the US EPA index made from PM alone.
 */
function eaqiRow(ctx: RowContext): Row | null {
  const levels = ctx.forecast.data.aqi;
  if (!hasValues(levels)) return null;
  return {
    id: 'aqi', kind: 'aqi', label: ctx.t('overlay.aqi'), metric: 'aqi', unit: 'EAQI',
    cell(k) {
      const level = levels[k];
      const tier = level === null || level === undefined ? null : eaqiTier(level);
      if (!tier) return { text: '', value: null };
      const name = ctx.t(`airq.tiers.${tier}`);
      return { text: String(Math.round(level!)), value: level, title: `${name} (EAQI ${Math.round(level!)})`, background: tint(AIR_QUALITY_COLORS[tier], 0.85) };
    },
  };
}

/** The air quality index row: the stored European AQI where the forecast has it, else the US EPA index from PM. */
const airQualityIndexRow = (ctx: RowContext): Row | null => eaqiRow(ctx) ?? aqiRow(ctx);


const present = (rows: (Row | null)[]): Row[] => rows.filter((r): r is Row => r !== null);

/** The table display: weather, temperature, rain, clouds, wind and gusts, pressure, humidity. */
export function tableRows(ctx: RowContext): Row[] {
  return present([
    weatherRow(ctx),
    seriesRow(ctx, 'temp', 'temp', 'temp', { scale: 'temp' }),
    seriesRow(ctx, 'dewpoint', 'dewpoint', 'temp'),
    seriesRow(ctx, 'rain', 'rain', 'rain', { scale: 'rain', hideZero: true }),
    seriesRow(ctx, 'clouds', 'clouds', 'clouds'),
    windRow(ctx),
    seriesRow(ctx, 'gust', 'gust', 'wind'),
    seriesRow(ctx, 'pressure', 'pressure', 'pressure'),
    seriesRow(ctx, 'humidity', 'rh', 'humidity'),
    waveFamilyRow(ctx, 'waves'),
    seriesRow(ctx, 'sst', 'sst', 'temp', { scale: 'sst', label: 'overlay.sst' }),
    seriesRow(ctx, 'snowcover', 'snowcover', 'snow', { scale: 'snowcover', label: 'overlay.snowcover', hideZero: true, text: snowText }),
    seriesRow(ctx, 'deg0', 'deg0', 'altitude', { label: 'overlay.deg0' }),
    seriesRow(ctx, 'visibility', 'visibility', 'visibility', { label: 'overlay.visibility' }),
    seriesRow(ctx, 'cbase', 'cbase', 'cloudHeight', { label: 'overlay.cbase' }),
    seriesRow(ctx, 'cloudtop', 'cloudtop', 'cloudHeight', { label: 'overlay.cloudtop' }),
    // Derived at the surface (server/ingest/derived).
    seriesRow(ctx, 'wetbulbtemp', 'wetbulbtemp', 'temp', { scale: 'wetbulbtemp', label: 'overlay.wetbulbtemp' }),
    seriesRow(ctx, 'fog', 'fog', 'fog', { scale: 'fog', label: 'overlay.fog' }),
    seriesRow(ctx, 'thunder', 'thunder', 'thunder', { scale: 'thunder', label: 'overlay.thunder', hideZero: true }),
    seriesRow(ctx, 'solarpower', 'solarpower', 'solarpower', { scale: 'solarpower', label: 'overlay.solarpower', hideZero: true }),
    seriesRow(ctx, 'fwi', 'fwi', 'fwi', { scale: 'fwi', label: 'overlay.fwi' }),
    seriesRow(ctx, 'dfm10h', 'dfm10h', 'fuelMoisture', { scale: 'dfm10h', label: 'overlay.dfm10h' }),
    airQualityIndexRow(ctx),
  ]);
}

export function windRows(ctx: RowContext): Row[] {
  return present([windRow(ctx), seriesRow(ctx, 'gust', 'gust', 'wind', { scale: 'wind' })]);
}

/** The waves display: the combined sea, wind waves and the swells, each with its direction and period; then the wind. */
export function waveRows(ctx: RowContext): Row[] {
  return present([...WAVE_FAMILIES.map((f) => waveFamilyRow(ctx, f)), seriesRow(ctx, 'sst', 'sst', 'temp', { scale: 'sst', label: 'overlay.sst' }), windRow(ctx)]);
}

export function airQualityRows(ctx: RowContext): Row[] {
  return present([
    airQualityIndexRow(ctx),
    seriesRow(ctx, 'pm2p5', 'pm2p5', 'pm', { scale: 'pm2p5' }),
    seriesRow(ctx, 'pm10', 'pm10', 'pm', { scale: 'pm10' }),
    seriesRow(ctx, 'aod550', 'aod550', 'aod', { scale: 'aod550' }),
  ]);
}
