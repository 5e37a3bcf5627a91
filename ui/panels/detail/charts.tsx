/**
 * The detail window's charts, plain SVG (no chart library: the window must open without a long
 * main-thread task): one column per shown step, COLUMN_WIDTH px wide, aligned with the time header
 * above them. Each chart says which bands it has (ChartBand) so the label column lines up.
 */

import { COLOR_SCALES, colorAt } from '../../../common/catalogue/colors.ts';
import { LEVELS } from '../../../common/catalogue/levels.ts';
import type { LevelForecast, PointForecast } from '../../../common/api/forecast.ts';
import { hasValues, windOf, windSeries } from './forecast.ts';
import { numberIn, type Translate } from './rows.tsx';

/** Width of one step's column, px. */
export const COLUMN_WIDTH = 44;

export interface ChartBand {
  id: string;
  label: string;
  unit?: string;
  metric?: string;
  height: number;
}

export interface ChartProps {
  forecast: PointForecast;
  /** Forecast indices of the columns. */
  cols: readonly number[];
  unitOf(metric: string): string;
  t: Translate;
  current: number;
}

const x = (c: number) => c * COLUMN_WIDTH + COLUMN_WIDTH / 2;

function domain(values: readonly (number | null)[], cols: readonly number[], pad: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const k of cols) {
    const v = values[k];
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (!Number.isFinite(lo)) return [0, 1];
  return [lo - pad, hi + pad];
}

/** A polyline through the present values (gaps break it into pieces). */
function linePath(values: readonly (number | null)[], cols: readonly number[], y: (v: number) => number): string {
  let d = '';
  let pen = false;
  cols.forEach((k, c) => {
    const v = values[k];
    if (v === null || v === undefined || !Number.isFinite(v)) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${x(c)} ${y(v).toFixed(1)}`;
    pen = true;
  });
  return d;
}

function Arrow({ cx, cy, from, size = 6 }: { cx: number; cy: number; from: number; size?: number }) {
  return (
    <path transform={`translate(${cx} ${cy}) rotate(${Math.round(from)}) scale(${size / 7})`} d="M0 7L-4.5 0.5H-1.5V-7H1.5V0.5H4.5Z" fill="currentColor" />
  );
}

function CurrentColumn({ current, height }: { current: number; height: number }) {
  return current < 0 ? null : <rect className="detail-chart-now" x={current * COLUMN_WIDTH} y={0} width={COLUMN_WIDTH} height={height} />;
}

// ---- meteogram --------------------------------------------------------------------------------

export function meteogramBands(props: Pick<ChartProps, 'forecast' | 'unitOf' | 't'>): ChartBand[] {
  const { data } = props.forecast;
  const { t, unitOf } = props;
  const bands: ChartBand[] = [];
  if (hasValues(data.clouds)) bands.push({ id: 'clouds', label: t('detail:rows.clouds'), height: 20 });
  if (hasValues(data.temp) || hasValues(data.rain)) {
    const label = [hasValues(data.temp) ? t('detail:rows.temp') : null, hasValues(data.rain) ? t('detail:rows.rain') : null].filter(Boolean).join(' / ');
    const unit = [hasValues(data.temp) ? unitOf('temp') : null, hasValues(data.rain) ? unitOf('rain') : null].filter(Boolean).join(' / ');
    bands.push({ id: 'temp', label, unit, height: 120 });
  }
  if (hasValues(data.pressure)) bands.push({ id: 'pressure', label: t('detail:rows.pressure'), unit: unitOf('pressure'), metric: 'pressure', height: 56 });
  if (hasValues(data.wind_u)) bands.push({ id: 'wind', label: t('detail:rows.wind'), unit: unitOf('wind'), metric: 'wind', height: 40 });
  return bands;
}

export function Meteogram(props: ChartProps) {
  const { forecast, cols, unitOf, current } = props;
  const { data } = forecast;
  const bands = meteogramBands(props);
  const width = cols.length * COLUMN_WIDTH;
  const height = bands.reduce((s, b) => s + b.height, 0);
  let top = 0;
  const parts = bands.map((band) => {
    const y0 = top;
    top += band.height;
    switch (band.id) {
      case 'clouds':
        return (
          <g key="clouds" className="detail-chart-clouds">
            {cols.map((k, c) => {
              const v = data.clouds![k];
              return v === null ? null : <rect key={c} x={c * COLUMN_WIDTH} y={y0 + 3} width={COLUMN_WIDTH} height={band.height - 6} fill="#dfe6ef" fillOpacity={Math.max(0, Math.min(1, v / 100)) * 0.9} />;
            })}
          </g>
        );
      case 'temp': {
        const rainMax = Math.max(5, ...cols.map((k) => data.rain?.[k] ?? 0));
        const rainH = 44;
        const base = y0 + band.height - 2;
        const [lo, hi] = data.temp ? domain(data.temp, cols, 1) : [0, 1];
        const y = (v: number) => y0 + 18 + (1 - (v - lo) / (hi - lo)) * (band.height - 40);
        const tempUnit = unitOf('temp');
        const rainUnit = unitOf('rain');
        return (
          <g key="temp">
            {data.rain && cols.map((k, c) => {
              const v = data.rain![k];
              if (v === null || v < 0.05) return null;
              const h = Math.max(1.5, (Math.min(v, rainMax) / rainMax) * rainH);
              const text = numberIn('rain', rainUnit, v);
              return (
                <g key={c}>
                  <rect className="detail-chart-rain" x={c * COLUMN_WIDTH + 7} y={base - h} width={COLUMN_WIDTH - 14} height={h} />
                  {Number(text) > 0 && <text className="detail-chart-value small rain" x={x(c)} y={base - h - 3} textAnchor="middle">{text}</text>}
                </g>
              );
            })}
            {data.temp && <path className="detail-chart-temp" d={linePath(data.temp, cols, y)} />}
            {data.temp && cols.map((k, c) => {
              const v = data.temp![k];
              if (v === null) return null;
              return (
                <text key={c} className="detail-chart-value" x={x(c)} y={y(v) - 6} textAnchor="middle" fill={`rgb(${colorAt(COLOR_SCALES.temp, v).slice(0, 3).map((n) => Math.round(Math.min(255, n + 60))).join(',')})`}>
                  {numberIn('temp', tempUnit, v)}
                </text>
              );
            })}
          </g>
        );
      }
      case 'pressure': {
        const [lo, hi] = domain(data.pressure!, cols, 50);
        const y = (v: number) => y0 + 8 + (1 - (v - lo) / (hi - lo)) * (band.height - 16);
        const unit = unitOf('pressure');
        return (
          <g key="pressure">
            <path className="detail-chart-pressure" d={linePath(data.pressure!, cols, y)} />
            {cols.map((k, c) => {
              const v = data.pressure![k];
              if (v === null || c % 4 !== 0) return null;
              return <text key={c} className="detail-chart-value small" x={x(c)} y={y(v) - 4} textAnchor="middle">{numberIn('pressure', unit, v)}</text>;
            })}
          </g>
        );
      }
      case 'wind': {
        const winds = windSeries(data.wind_u, data.wind_v);
        const unit = unitOf('wind');
        return (
          <g key="wind" className="detail-chart-wind">
            {cols.map((k, c) => {
              const w = winds[k];
              if (!w) return null;
              return (
                <g key={c}>
                  <Arrow cx={x(c)} cy={y0 + 11} from={w.from} size={7} />
                  <text className="detail-chart-value small" x={x(c)} y={y0 + 33} textAnchor="middle">{numberIn('wind', unit, w.speed)}</text>
                </g>
              );
            })}
          </g>
        );
      }
      default:
        return null;
    }
  });
  return (
    <svg className="detail-chart" width={width} height={height} data-testid="detail-meteogram">
      <CurrentColumn current={current} height={height} />
      {parts}
    </svg>
  );
}

// ---- wind and waves ---------------------------------------------------------------------------

export function windBands(props: Pick<ChartProps, 't' | 'unitOf'>): ChartBand[] {
  return [{ id: 'windBars', label: props.t('detail:rows.wind'), unit: props.unitOf('wind'), metric: 'wind', height: 96 }];
}

export function WindChart({ forecast, cols, current }: ChartProps) {
  const { data } = forecast;
  const winds = windSeries(data.wind_u, data.wind_v);
  const max = Math.max(5, ...cols.map((k) => Math.max(winds[k]?.speed ?? 0, data.gust?.[k] ?? 0)));
  const height = 96;
  const y = (v: number) => height - 4 - (v / max) * (height - 12);
  return (
    <svg className="detail-chart" width={cols.length * COLUMN_WIDTH} height={height} data-testid="detail-windchart">
      <CurrentColumn current={current} height={height} />
      {cols.map((k, c) => {
        const w = winds[k];
        const g = data.gust?.[k];
        return (
          <g key={c}>
            {g !== null && g !== undefined && <rect className="detail-chart-gust" x={c * COLUMN_WIDTH + 7} y={y(g)} width={COLUMN_WIDTH - 14} height={height - 4 - y(g)} />}
            {w && <rect x={c * COLUMN_WIDTH + 9} y={y(w.speed)} width={COLUMN_WIDTH - 18} height={height - 4 - y(w.speed)} fill={`rgb(${colorAt(COLOR_SCALES.wind, w.speed).slice(0, 3).join(',')})`} />}
          </g>
        );
      })}
    </svg>
  );
}

export function waveBands(props: Pick<ChartProps, 't' | 'unitOf'>): ChartBand[] {
  return [{ id: 'waveBars', label: props.t('detail:rows.waves'), unit: props.unitOf('waves'), metric: 'waves', height: 80 }];
}

export function WaveChart({ forecast, cols, current }: ChartProps) {
  const values = forecast.data.waves ?? [];
  const max = Math.max(2, ...cols.map((k) => values[k] ?? 0));
  const height = 80;
  const y = (v: number) => height - 4 - (v / max) * (height - 10);
  return (
    <svg className="detail-chart" width={cols.length * COLUMN_WIDTH} height={height} data-testid="detail-wavechart">
      <CurrentColumn current={current} height={height} />
      <path className="detail-chart-waves" d={`${linePath(values, cols, y)}`} />
      {cols.map((k, c) => {
        const v = values[k];
        return v === null || v === undefined ? null : <circle key={c} cx={x(c)} cy={y(v)} r={2.5} fill={`rgb(${colorAt(COLOR_SCALES.waves, v).slice(0, 3).join(',')})`} />;
      })}
    </svg>
  );
}

// ---- airgram ----------------------------------------------------------------------------------

const AIRGRAM_ROW = 17;

/** Levels from the top of the chart (highest) to the ground: the meteogram lists them from the ground up. */
function airgramLevels(levels: readonly string[]): string[] {
  return [...levels].reverse();
}

export function airgramBands(levels: readonly string[], t: Translate): ChartBand[] {
  return airgramLevels(levels).map((level) => ({
    id: `level-${level}`, label: t('detail:airgram.level', { hPa: LEVELS.find((l) => l.ident === level)?.hPa ?? level }), height: AIRGRAM_ROW,
  }));
}

export function Airgram({ meteogram, cols, colTs, unitOf, current, t }: {
  meteogram: LevelForecast; cols: readonly number[]; colTs: readonly number[]; unitOf(metric: string): string; current: number; t: Translate;
}) {
  const levels = airgramLevels(meteogram.header.levels);
  const index = new Map(meteogram.ts.map((ts, k) => [ts, k]));
  const height = levels.length * AIRGRAM_ROW;
  const tempUnit = unitOf('temp');
  const windUnit = unitOf('wind');
  const dense = cols.length > 120;
  return (
    <svg className="detail-chart" width={cols.length * COLUMN_WIDTH} height={height} data-testid="detail-airgram">
      {levels.map((level, r) => {
        const temp = meteogram.data[`temp-${level}`];
        const u = meteogram.data[`wind_u-${level}`];
        const v = meteogram.data[`wind_v-${level}`];
        const gh = meteogram.data[`gh-${level}`];
        const y0 = r * AIRGRAM_ROW;
        return (
          <g key={level}>
            {colTs.map((ts, c) => {
              const k = index.get(ts);
              if (k === undefined) return null;
              const tv = temp?.[k] ?? null;
              const w = u?.[k] != null && v?.[k] != null ? windOf(u[k]!, v[k]!) : null;
              const title = [
                t('detail:airgram.level', { hPa: LEVELS.find((l) => l.ident === level)?.hPa ?? level }),
                gh?.[k] != null ? `${numberIn('altitude', unitOf('altitude'), gh[k])} ${unitOf('altitude')}` : null,
                tv !== null ? `${numberIn('temp', tempUnit, tv)}${tempUnit}` : null,
                w ? `${numberIn('wind', windUnit, w.speed)} ${windUnit}, ${t('detail:windFrom', { deg: Math.round(w.from) })}` : null,
              ].filter(Boolean).join(' · ');
              return (
                <g key={c}>
                  <rect x={c * COLUMN_WIDTH} y={y0} width={COLUMN_WIDTH} height={AIRGRAM_ROW}
                    fill={tv === null ? 'transparent' : `rgb(${colorAt(COLOR_SCALES.temp, tv).slice(0, 3).join(',')})`} fillOpacity={0.8}>
                    <title>{title}</title>
                  </rect>
                  {tv !== null && (!dense || c % 2 === 0) && (
                    <text className="detail-chart-value small dark" x={c * COLUMN_WIDTH + 15} y={y0 + 12} textAnchor="middle">{numberIn('temp', tempUnit, tv)}</text>
                  )}
                  {w && (!dense || c % 2 === 0) && <Arrow cx={c * COLUMN_WIDTH + 33} cy={y0 + AIRGRAM_ROW / 2} from={w.from} size={5} />}
                </g>
              );
            })}
          </g>
        );
      })}
      <CurrentColumn current={current} height={height} />
    </svg>
  );
}
