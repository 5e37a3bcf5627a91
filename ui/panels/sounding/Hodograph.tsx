/**
 * The hodograph of a sounding: the tip of the wind vector (u east, v north) by height, coloured by
 * height band above the ground (diagram.ts HODOGRAPH_BANDS), on rings of equal speed in the user's
 * wind unit. Plain SVG.
 */

import { useMemo } from 'react';
import { METRICS } from '../../../common/catalogue/metrics.ts';
import type { Sounding } from '../../../common/sounding/types.ts';
import { HODOGRAPH_BANDS, hodographPoints, hodographRings, hodographSegments } from './diagram.ts';
import type { Translate } from './SkewT.tsx';

const SIZE = 200;
const RADIUS = SIZE / 2 - 14;

export function Hodograph({ sounding, windUnit, t }: { sounding: Sounding; windUnit: string; t: Translate }) {
  // Beaufort is no speed scale to draw rings of: knots then.
  const unit = windUnit === 'bft' ? 'kt' : windUnit;
  const def = METRICS.wind.conv[unit] ?? METRICS.wind.conv.kt;
  const geometry = useMemo(() => {
    const points = hodographPoints(sounding.levels, sounding.elevation);
    const max = Math.max(0, ...points.map((p) => def.to(Math.hypot(p.u, p.v))));
    const rings = hodographRings(max);
    const scale = RADIUS / (rings.step * rings.count);
    const xy = (p: { u: number; v: number }) => `${(def.to(p.u) * scale).toFixed(2)} ${(-def.to(p.v) * scale).toFixed(2)}`;
    const segments = hodographSegments(points).map((s) => ({ band: s.band, d: `M${s.points.map(xy).join('L')}` }));
    return { points, rings, scale, segments };
  }, [sounding, def]);
  const { rings, scale, segments } = geometry;
  return (
    <figure className="hodograph" data-testid="hodograph">
      <svg viewBox={`${-SIZE / 2} ${-SIZE / 2} ${SIZE} ${SIZE}`} role="img" aria-label={t('hodograph')}>
        {Array.from({ length: rings.count }, (_, i) => (i + 1) * rings.step).map((r) => (
          <g key={r}>
            <circle r={r * scale} className="hodo-ring" />
            <text x={r * scale * Math.SQRT1_2 + 2} y={-r * scale * Math.SQRT1_2 - 2} className="hodo-label">{r}</text>
          </g>
        ))}
        <line x1={-RADIUS} x2={RADIUS} y1={0} y2={0} className="hodo-axis" />
        <line x1={0} x2={0} y1={-RADIUS} y2={RADIUS} className="hodo-axis" />
        {segments.map((s, i) => <path key={i} d={s.d} stroke={HODOGRAPH_BANDS[s.band].colour} className="hodo-line" data-band={s.band} />)}
        <text x={SIZE / 2 - 4} y={SIZE / 2 - 4} className="hodo-label" textAnchor="end">{def.label}</text>
      </svg>
      <figcaption className="hodo-legend">
        {HODOGRAPH_BANDS.map((b) => (
          <span key={b.from}><i style={{ background: b.colour }} />{t('band', { from: b.from / 1000, to: b.to / 1000 })}</span>
        ))}
      </figcaption>
      {!segments.length && <p className="sounding-note">{t('noWind')}</p>}
    </figure>
  );
}
