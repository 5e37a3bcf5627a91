/**
 * The skew-T log-p diagram of a sounding (SPEC §2 /sounding, /radiosonde), plain SVG so it is sharp
 * at any pixel ratio: the background lines of diagram.ts, the temperature and dew-point profiles,
 * the chosen parcel's curve with its positive area shaded, wind barbs down the right side, the
 * heights of the labelled pressures, and a read-out of pressure, height, T and T_d under the
 * pointer. Temperatures are labelled in the user's unit; the barbs follow the plotting convention
 * (knots: a half barb 5, a barb 10, a flag 50).
 */

import { memo, useMemo, useRef, useState, type PointerEvent } from 'react';
import { formatValue, METRICS, KELVIN_OFFSET } from '../../../common/catalogue/metrics.ts';
import type { ParcelAnalysis, Sounding, SoundingLevel } from '../../../common/sounding/types.ts';
import {
  barbPath, curvePath, curvePressures, DRY_ADIABATS, dryAdiabatTemperature, isothermLine, isotherms, MIXING_RATIO_TOP, MIXING_RATIOS,
  mixingRatioTemperature, MOIST_ADIABAT_TOP, spacedOut, MOIST_ADIABATS, moistAdiabatAt, pressureAt, pressureTicks, skewTFrame, valueAtPressure, xOf, yOf,
} from './diagram.ts';

/** The SVG's own size (its viewBox): it scales to the window's width. */
const VIEW = { width: 560, height: 460 } as const;
const MARGIN = { left: 40, right: 46, top: 8, bottom: 22 } as const;
/** Least vertical distance between two wind barbs, px of the view: a radiosonde's many levels would overlap. */
const BARB_GAP = 11;
const PLOT = { width: VIEW.width - MARGIN.left - MARGIN.right, height: VIEW.height - MARGIN.top - MARGIN.bottom } as const;
/** The diagram's frame: one size, the same for every sounding. */
const FRAME = skewTFrame(PLOT.width, PLOT.height);

export interface SoundingUnits {
  temp: string;
  altitude: string;
  wind: string;
  /** Precipitable water. */
  precip: string;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A temperature in °C shown in the user's unit, without the unit. */
export function temperatureIn(unit: string, celsius: number, decimals?: number): string {
  const def = METRICS.temp.conv[unit] ?? METRICS.temp.conv['°C'];
  return def.to(celsius + KELVIN_OFFSET).toFixed(decimals ?? def.precision).replace(/^-(0\.?0*)$/, '$1');
}

export function altitudeIn(unit: string, metres: number): string {
  const def = METRICS.altitude.conv[unit] ?? METRICS.altitude.conv.m;
  return `${def.to(metres).toFixed(0)}\u00a0${def.label}`;
}

interface BackgroundLines {
  isotherms: ReturnType<typeof isotherms>;
  dry: string[];
  moist: string[];
  mixing: { g: number; d: string; x: number }[];
}

/**
 * The background lines depend only on the frame (FRAME) and the user's temperature unit: they are
 * worked out once a session for each unit (~20 ms of integrating moist adiabats), not at every
 * opening of the window.
 */
const backgroundCache = new Map<string, BackgroundLines>();

function backgroundLines(tempUnit: string): BackgroundLines {
  const frame = FRAME;
  const cached = backgroundCache.get(tempUnit);
  if (cached) return cached;
  const def = METRICS.temp.conv[tempUnit] ?? METRICS.temp.conv['°C'];
  const toUnit = (c: number) => def.to(c + KELVIN_OFFSET);
  const fromUnit = (u: number) => def.from(u) - KELVIN_OFFSET;
  const all = curvePressures(frame);
  const moistPs = curvePressures(frame, MOIST_ADIABAT_TOP);
  const mixPs = curvePressures(frame, MIXING_RATIO_TOP, 25);
  const lines = {
    isotherms: isotherms(frame, 10, toUnit, fromUnit),
    dry: DRY_ADIABATS.map((theta) => curvePath(frame, all.map((p) => ({ p, t: dryAdiabatTemperature(theta, p) })))),
    // Each moist adiabat is named by its temperature at 1000 hPa and integrated both ways from there.
    moist: MOIST_ADIABATS.map((tw) => {
      const below = moistPs.filter((p) => p > 1000).reverse();
      const above = moistPs.filter((p) => p <= 1000);
      const tBelow = moistAdiabatAt(tw, 1000, below).reverse();
      const tAbove = moistAdiabatAt(tw, 1000, above);
      const ps = [...below.reverse(), ...above];
      return curvePath(frame, [...tBelow, ...tAbove].map((t, i) => ({ p: ps[i], t })));
    }),
    mixing: MIXING_RATIOS.map((g) => ({ g, d: curvePath(frame, mixPs.map((p) => ({ p, t: mixingRatioTemperature(g / 1000, p) }))), x: xOf(frame, mixingRatioTemperature(g / 1000, MIXING_RATIO_TOP), MIXING_RATIO_TOP) })),
  };
  backgroundCache.set(tempUnit, lines);
  return lines;
}

const Background = memo(function Background({ tempUnit }: { tempUnit: string }) {
  const frame = FRAME;
  const lines = backgroundLines(tempUnit);
  return (
    <g className="skewt-background">
      {lines.dry.map((d, i) => <path key={`d${i}`} d={d} className="skewt-dry" />)}
      {lines.moist.map((d, i) => <path key={`m${i}`} d={d} className="skewt-moist" />)}
      {lines.mixing.map(({ g, d }) => <path key={`w${g}`} d={d} className="skewt-mixing" />)}
      {lines.isotherms.map(({ value, celsius }) => {
        const [x1, y1, x2, y2] = isothermLine(frame, celsius);
        return <line key={`t${value}`} x1={x1} y1={y1} x2={x2} y2={y2} className="skewt-iso" />;
      })}
      {/* The freezing isotherm, in every unit (32 °F is not on a 10 °F step). */}
      {(() => {
        const [x1, y1, x2, y2] = isothermLine(frame, 0);
        return <line x1={x1} y1={y1} x2={x2} y2={y2} className="skewt-iso skewt-zero" />;
      })()}
      {lines.mixing.map(({ g, x }) => (
        <text key={`wl${g}`} x={x} y={yOf(frame, MIXING_RATIO_TOP) - 3} className="skewt-mixing-label" textAnchor="middle">{g}</text>
      ))}
    </g>
  );
});

export interface SkewTProps {
  sounding: Sounding;
  parcel: ParcelAnalysis | null;
  units: SoundingUnits;
  t: Translate;
}

export function SkewT({ sounding, parcel, units, t }: SkewTProps) {
  const frame = FRAME;
  const svg = useRef<SVGSVGElement>(null);
  const [hoverP, setHoverP] = useState<number | null>(null);
  const levels = sounding.levels;

  const profile = useMemo(() => {
    const inFrame = levels.filter((l) => l.pressure >= frame.pTop && l.pressure <= frame.pBottom);
    const temp = curvePath(frame, inFrame.filter((l) => l.temp !== null).map((l) => ({ p: l.pressure, t: l.temp! })));
    const dew = curvePath(frame, inFrame.filter((l) => l.dewpoint !== null).map((l) => ({ p: l.pressure, t: l.dewpoint! })));
    return { temp, dew, inFrame };
  }, [levels, frame]);

  const parcelPaths = useMemo(() => {
    if (!parcel || !parcel.curve.length) return null;
    const curve = parcel.curve.filter((c) => c.pressure >= frame.pTop && c.pressure <= frame.pBottom);
    const line = curvePath(frame, curve.map((c) => ({ p: c.pressure, t: c.temp })));
    // The positive area: where the parcel is warmer than the environment, between LFC and EL.
    let area = '';
    if (parcel.lfc && parcel.el && parcel.cape > 0) {
      const lfc = parcel.lfc.pressure;
      const el = parcel.el.pressure;
      const inside = curve.filter((c) => c.pressure <= lfc && c.pressure >= el);
      const envAt = (p: number) => valueAtPressure(levels, p, (l) => l.temp);
      const env = inside.map((c) => ({ p: c.pressure, t: envAt(c.pressure) })).filter((x): x is { p: number; t: number } => x.t !== null);
      if (inside.length > 1 && env.length > 1) {
        area = `${curvePath(frame, inside.map((c) => ({ p: c.pressure, t: c.temp })))}L${curvePath(frame, env.reverse()).slice(1)}Z`;
      }
    }
    return { line, area };
  }, [parcel, frame, levels]);

  const ticks = pressureTicks(frame);
  const def = METRICS.temp.conv[units.temp] ?? METRICS.temp.conv['°C'];
  const isoLabels = useMemo(() => isotherms(frame, 10, (c) => def.to(c + KELVIN_OFFSET), (u) => def.from(u) - KELVIN_OFFSET)
    .map(({ value, celsius }) => ({ value, x: xOf(frame, celsius, frame.pBottom) }))
    .filter(({ x }) => x >= 8 && x <= frame.width - 8), [frame, def]);

  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = svg.current!.getBoundingClientRect();
    const y = (e.clientY - rect.top) * (VIEW.height / rect.height) - MARGIN.top;
    setHoverP(y >= 0 && y <= frame.height ? pressureAt(frame, y) : null);
  };

  const readout = hoverP === null ? null : {
    p: hoverP,
    y: yOf(frame, hoverP),
    height: valueAtPressure(levels, hoverP, (l) => l.height),
    temp: valueAtPressure(levels, hoverP, (l) => l.temp),
    dew: valueAtPressure(levels, hoverP, (l) => l.dewpoint),
    // The reported wind nearest in ln p (directions are not interpolated across north).
    wind: levels.filter((l) => l.windDir !== null && l.windSpeed !== null)
      .reduce<SoundingLevel | null>((best, l) => (!best || Math.abs(Math.log(l.pressure / hoverP)) < Math.abs(Math.log(best.pressure / hoverP)) ? l : best), null),
  };

  return (
    <div className="skewt">
      <svg ref={svg} viewBox={`0 0 ${VIEW.width} ${VIEW.height}`} className="skewt-svg" data-testid="skewt" role="img"
        aria-label={t('diagram')} onPointerMove={onMove} onPointerLeave={() => setHoverP(null)}>
        <defs>
          <clipPath id="skewt-clip"><rect x={0} y={0} width={frame.width} height={frame.height} /></clipPath>
        </defs>
        <g transform={`translate(${MARGIN.left} ${MARGIN.top})`}>
          <rect x={0} y={0} width={frame.width} height={frame.height} className="skewt-plot" />
          <g clipPath="url(#skewt-clip)">
            <Background tempUnit={units.temp} />
            {ticks.map((p) => <line key={p} x1={0} x2={frame.width} y1={yOf(frame, p)} y2={yOf(frame, p)} className="skewt-isobar" />)}
            {parcelPaths?.area && <path d={parcelPaths.area} className="skewt-cape" data-testid="skewt-cape" />}
            {parcelPaths && <path d={parcelPaths.line} className="skewt-parcel" data-testid="skewt-parcel" />}
            {profile.dew && <path d={profile.dew} className="skewt-dewpoint" data-testid="skewt-dewpoint" />}
            {profile.temp && <path d={profile.temp} className="skewt-temp" data-testid="skewt-temp" />}
            {profile.inFrame.filter((l) => l.temp !== null).map((l) => (
              <circle key={l.pressure} cx={xOf(frame, l.temp!, l.pressure)} cy={yOf(frame, l.pressure)} r={1.8} className="skewt-temp-dot" />
            ))}
            {readout && <line x1={0} x2={frame.width} y1={readout.y} y2={readout.y} className="skewt-cursor" />}
            {readout?.temp != null && <circle cx={xOf(frame, readout.temp, readout.p)} cy={readout.y} r={3.5} className="skewt-cursor-temp" />}
            {readout?.dew != null && <circle cx={xOf(frame, readout.dew, readout.p)} cy={readout.y} r={3.5} className="skewt-cursor-dew" />}
          </g>
          <rect x={0} y={0} width={frame.width} height={frame.height} className="skewt-border" />
          {ticks.map((p) => (
            <text key={p} x={-4} y={yOf(frame, p) + 3.5} className="skewt-axis" textAnchor="end">{p}</text>
          ))}
          {ticks.map((p) => {
            const h = valueAtPressure(levels, p, (l) => l.height);
            return h === null ? null : <text key={`h${p}`} x={4} y={yOf(frame, p) + 10} className="skewt-height" data-testid="skewt-height">{altitudeIn(units.altitude, h)}</text>;
          })}
          {isoLabels.map(({ value, x }) => (
            <text key={value} x={x} y={frame.height + 14} className="skewt-axis" textAnchor="middle">{value}</text>
          ))}
          <text x={frame.width} y={frame.height + 14} dx={4} className="skewt-axis skewt-unit">{def.label}</text>
          <text x={-4} y={frame.height + 14} className="skewt-axis skewt-unit" textAnchor="end">hPa</text>
          <g transform={`translate(${frame.width + MARGIN.right / 2} 0)`} data-testid="skewt-barbs">
            <line x1={0} x2={0} y1={0} y2={frame.height} className="skewt-barb-staff-line" />
            {spacedOut(profile.inFrame.filter((l) => l.windDir !== null && l.windSpeed !== null), (l) => yOf(frame, l.pressure), BARB_GAP).map((l) => {
              const d = barbPath(l.windDir!, l.windSpeed!, 20);
              const y = yOf(frame, l.pressure);
              return d
                ? <path key={l.pressure} d={d} transform={`translate(0 ${y.toFixed(2)})`} className="skewt-barb" data-testid="skewt-barb" />
                : <circle key={l.pressure} cx={0} cy={y} r={3} className="skewt-barb-calm" data-testid="skewt-barb" />;
            })}
          </g>
        </g>
      </svg>
      <div className="skewt-readout" data-testid="sounding-readout" aria-live="polite">
        {readout ? (
          <>
            <span>{readout.p.toFixed(0)} hPa</span>
            <span>{readout.height === null ? '—' : altitudeIn(units.altitude, readout.height)}</span>
            <span className="c-temp">T {readout.temp === null ? '—' : `${temperatureIn(units.temp, readout.temp, 1)}${def.label}`}</span>
            <span className="c-dew">T<sub>d</sub> {readout.dew === null ? '—' : `${temperatureIn(units.temp, readout.dew, 1)}${def.label}`}</span>
            {readout.wind && (
              <span>{Math.round(readout.wind.windDir!)}° {formatValue(METRICS.wind, units.wind, readout.wind.windSpeed!)}</span>
            )}
          </>
        ) : <span className="skewt-hint">{t('hover')}</span>}
      </div>
    </div>
  );
}
