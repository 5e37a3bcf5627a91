/**
 * One sounding drawn the way both windows show it (/sounding model profiles and /radiosonde
 * observations): the skew-T, the parcel choice (surface, mixed layer, most unstable), the index
 * table and the hodograph. The indices come from the `analyse` it is given (analysis.ts); without
 * one, or where it fails on a profile, the table shows "—" and no parcel is drawn.
 */

import { useMemo, useState } from 'react';
import { METRICS, KELVIN_OFFSET } from '../../../common/catalogue/metrics.ts';
import type { ParcelKind, Sounding, SoundingIndices } from '../../../common/sounding/types.ts';
import type { Analyse } from './analysis.ts';
import { Hodograph } from './Hodograph.tsx';
import { altitudeIn, SkewT, type SoundingUnits, type Translate } from './SkewT.tsx';

const PARCELS: readonly ParcelKind[] = ['surface', 'mixedLayer', 'mostUnstable'];
const DASH = '—';

function runAnalysis(analyse: Analyse | null, sounding: Sounding): SoundingIndices | null {
  if (!analyse) return null;
  try {
    return analyse(sounding);
  } catch (error) {
    console.warn('Sounding analysis failed', error);
    return null;
  }
}

export function SoundingView({ sounding, analyse, units, t }: { sounding: Sounding; analyse: Analyse | null; units: SoundingUnits; t: Translate }) {
  const [kind, setKind] = useState<ParcelKind>('mixedLayer');
  const indices = useMemo(() => runAnalysis(analyse, sounding), [analyse, sounding]);
  // A parcel that could not start (no humidity at its levels) has no curve and no figures.
  const candidate = indices?.parcels[kind] ?? null;
  const parcel = candidate && Number.isFinite(candidate.start.pressure) && Number.isFinite(candidate.start.dewpoint) && candidate.curve.length ? candidate : null;
  const hasDew = sounding.levels.some((l) => l.dewpoint !== null);

  const level = (x: { pressure: number; height: number | null } | null | undefined) => {
    if (!x) return DASH;
    return x.height === null ? `${x.pressure.toFixed(0)} hPa` : `${x.pressure.toFixed(0)} hPa · ${altitudeIn(units.altitude, x.height)}`;
  };
  const tempDef = METRICS.temp.conv[units.temp] ?? METRICS.temp.conv['°C'];
  // A temperature difference in the user's unit (°F degrees are 5/9 of a kelvin).
  const difference = (celsius: number) => (tempDef.to(KELVIN_OFFSET + celsius) - tempDef.to(KELVIN_OFFSET)).toFixed(1);
  const precipDef = METRICS.precip.conv[units.precip] ?? METRICS.precip.conv.mm;
  const rows: [string, string, string][] = [
    ['cape', t('index.cape'), parcel ? `${parcel.cape.toFixed(0)} J/kg` : DASH],
    ['cin', t('index.cin'), parcel ? `${parcel.cin.toFixed(0)} J/kg` : DASH],
    ['lcl', t('index.lcl'), parcel ? level(parcel.lcl) : DASH],
    ['lfc', t('index.lfc'), parcel ? level(parcel.lfc) : DASH],
    ['el', t('index.el'), parcel ? level(parcel.el) : DASH],
    ['li', t('index.li'), parcel?.liftedIndex != null ? `${difference(parcel.liftedIndex)} ${tempDef.label}` : DASH],
    ['pw', t('index.pw'), indices?.precipitableWater != null ? `${precipDef.to(indices.precipitableWater).toFixed(precipDef.precision)} ${precipDef.label}` : DASH],
    ['frz', t('index.freezing'), indices ? level(indices.freezingLevel) : DASH],
  ];

  return (
    <div className="sounding-view">
      <SkewT sounding={sounding} parcel={parcel} units={units} t={t} />
      <div className="sounding-legend">
        <span className="c-temp">━ {t('legend.temp')}</span>
        {hasDew && <span className="c-dew">━ {t('legend.dewpoint')}</span>}
        {parcel && <span className="c-parcel">┅ {t('legend.parcel')}</span>}
        <span className="c-dry">— {t('legend.dry')}</span>
        <span className="c-moist">┄ {t('legend.moist')}</span>
        <span className="c-mix">┈ {t('legend.mixing')}</span>
        <span>{t('legend.barbs')}</span>
      </div>
      {!hasDew && <p className="sounding-note" data-testid="sounding-no-dewpoint">{t('noDewpoint')}</p>}
      <div className="sounding-parcels" role="group" aria-label={t('parcel.label')}>
        {PARCELS.map((p) => (
          <button key={p} type="button" aria-pressed={p === kind} className={p === kind ? 'active' : ''} data-parcel={p} onClick={() => setKind(p)}>
            {t(`parcel.${p}`)}
          </button>
        ))}
      </div>
      <div className="sounding-lower">
        <table className="sounding-indices" data-testid="sounding-indices">
          <tbody>
            {rows.map(([id, label, value]) => (
              <tr key={id} data-index={id}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Hodograph sounding={sounding} windUnit={units.wind} t={t} />
      </div>
      {!indices && <p className="sounding-note" data-testid="sounding-no-indices">{t(analyse ? 'indicesFailed' : 'indicesUnavailable')}</p>}
    </div>
  );
}
