import { describe, expect, it } from 'vitest';
import { analyseSounding, freezingLevel, liftParcel, mixedLayerParcel, mostUnstableParcel, precipitableWater, surfaceParcel } from './analysis.ts';
import { dewpointFromMixingRatio, G0, moistAdiabat, RD, temperatureFromPotential } from './thermo.ts';
import type { Sounding, SoundingLevel } from './types.ts';

const sounding = (levels: Partial<SoundingLevel>[]): Sounding => ({
  source: 'model', id: 'test', lat: 0, lon: 0, elevation: 0, time: 0,
  levels: levels.map((l) => ({ pressure: 0, height: null, temp: null, dewpoint: null, windDir: null, windSpeed: null, ...l })),
});

/** Pressures from 1000 to 100 hPa every 10 hPa. */
const PRESSURES = Array.from({ length: 91 }, (_, i) => 1000 - 10 * i);

describe('precipitable water', () => {
  it('of a constant mixing ratio w from 1000 to 500 hPa is w x 500 hPa / g', () => {
    const w = 0.01;
    const s = sounding(PRESSURES.filter((p) => p >= 500).map((p) => ({ pressure: p, temp: 30, dewpoint: dewpointFromMixingRatio(w, p) })));
    expect(precipitableWater(s)).toBeCloseTo((w * 50_000) / G0, 6);
  });
  it('is null without humidity, and stops where the dew points end', () => {
    expect(precipitableWater(sounding([{ pressure: 1000, temp: 10 }, { pressure: 900, temp: 5 }]))).toBeNull();
    const s = sounding([{ pressure: 1000, temp: 10, dewpoint: 5 }, { pressure: 900, temp: 5, dewpoint: 0 }, { pressure: 800, temp: 0 }, { pressure: 700, temp: -5, dewpoint: -10 }]);
    const pw = precipitableWater(s) as number;
    expect(pw).toBeGreaterThan(0);
    expect(pw).toBeCloseTo(precipitableWater(sounding(s.levels.slice(0, 2))) as number, 9);
  });
});

describe('freezing level', () => {
  it('is the lowest crossing from above zero to below, linear in ln p, with the height linear in ln p', () => {
    const s = sounding([
      { pressure: 1000, temp: -2, height: 100 }, { pressure: 900, temp: 4, height: 1000 }, { pressure: 800, temp: -4, height: 2000 }, { pressure: 700, temp: 1, height: 3000 }, { pressure: 600, temp: -10, height: 4200 },
    ]);
    const f = 0.5;
    const pressure = Math.exp(Math.log(900) + f * Math.log(800 / 900));
    expect(freezingLevel(s)?.pressure).toBeCloseTo(pressure, 9);
    expect(freezingLevel(s)?.height).toBeCloseTo(1500, 6);
  });
  it('is null when the air is never above freezing', () => {
    expect(freezingLevel(sounding([{ pressure: 1000, temp: -1 }, { pressure: 500, temp: -30 }]))).toBeNull();
  });
});

describe('parcels', () => {
  // A dry-adiabatic mixed layer from 1000 to 850 hPa of θ 300 K, w 12 g/kg, a moist-adiabatic
  // environment above, 2 K colder than the parcel's, up to 200 hPa, then isothermal.
  const theta = 300;
  const w = 0.012;
  const base = sounding(PRESSURES.map((p) => {
    const dry = temperatureFromPotential(theta, p);
    return { pressure: p, temp: dry, dewpoint: dewpointFromMixingRatio(w, p), height: 8000 * Math.log(1000 / p) };
  }));

  it('the surface, mixed-layer and most-unstable parcels of a well-mixed layer are the same air', () => {
    const s = surfaceParcel(base)!;
    const ml = mixedLayerParcel(base)!;
    const mu = mostUnstableParcel(base)!;
    expect(ml.pressure).toBe(1000);
    expect(ml.temp).toBeCloseTo(s.temp, 6);
    expect(ml.dewpoint).toBeCloseTo(s.dewpoint, 6);
    expect(mu.pressure).toBe(1000);
  });

  it('CAPE of an environment a constant 2 K (virtual) colder than the parcel above its LCL is Rd x 2 K x ln(p_LCL / p_top)', () => {
    const start = surfaceParcel(base)!;
    const probe = liftParcel(base, start, 'surface');
    const lcl = probe.lcl!.pressure;
    // Environment: the parcel's curve less 2 K of virtual temperature above the LCL (dry air there,
    // so the parcel's vapour makes the difference: its Tv - T is added back) up to 300 hPa, warm above.
    const env = sounding(base.levels.map((l) => {
      if (l.pressure >= lcl) return l;
      const parcel = moistAdiabat(lcl, probe.curve.find((c) => c.pressure === lcl)!.temp, l.pressure);
      const ws = 0.622 * 6.112 * Math.exp((17.67 * parcel) / (parcel + 243.5)) / (l.pressure - 6.112 * Math.exp((17.67 * parcel) / (parcel + 243.5)));
      const tvParcel = (parcel + 273.15) * (1 + ws / 0.622) / (1 + ws) - 273.15;
      const temp = l.pressure >= 300 ? tvParcel - 2 : tvParcel + 5;
      return { ...l, temp, dewpoint: null };
    }));
    const a = liftParcel(env, start, 'surface');
    // Below the LCL the parcel is the environment itself (to the ln p interpolation between its
    // levels): no CIN, LFC at the LCL.
    expect(a.lfc!.pressure).toBeCloseTo(lcl, 6);
    expect(a.cin).toBeCloseTo(0, 1);
    expect(a.el!.pressure).toBeGreaterThan(290);
    expect(a.el!.pressure).toBeLessThan(300);
    // Zero buoyancy at the LCL (where the environment keeps its dew point), then 2 K up to 300 hPa;
    // the environment is linear in ln p between its 10 hPa levels, the parcel's curve is not (a few
    // hundredths of a kelvin), and the buoyancy runs on past 300 hPa to the EL: 30 J/kg either way.
    const expected = RD * 2 * Math.log(lcl / 300);
    expect(Math.abs(a.cape - expected)).toBeLessThan(30);
    expect(a.liftedIndex).toBeLessThan(0);
  });

  it('a stable sounding has no CAPE, no CIN (as the published tables say), no LFC and no EL', () => {
    const s = sounding(PRESSURES.map((p) => ({ pressure: p, temp: 20 - 0.004 * (1000 - p), dewpoint: 0 })));
    const a = analyseSounding(s);
    for (const p of Object.values(a.parcels)) {
      expect(p.cape).toBe(0);
      expect(p.cin).toBe(0);
      expect(p.lfc).toBeNull();
      expect(p.el).toBeNull();
      expect(p.liftedIndex).toBeGreaterThan(10);
    }
  });

  it('a sounding without humidity has empty parcels but still a freezing level', () => {
    const a = analyseSounding(sounding([{ pressure: 1000, temp: 10 }, { pressure: 700, temp: -5 }]));
    expect(a.parcels.surface.curve).toEqual([]);
    expect(a.parcels.mostUnstable.cape).toBe(0);
    expect(a.precipitableWater).toBeNull();
    expect(a.freezingLevel).not.toBeNull();
  });

  it('the most-unstable parcel is the highest θe of the lowest 300 hPa, not above', () => {
    const s = sounding([
      { pressure: 1000, temp: 10, dewpoint: 0 }, { pressure: 900, temp: 12, dewpoint: 11 }, { pressure: 800, temp: 2, dewpoint: -5 },
      { pressure: 650, temp: 5, dewpoint: 5 }, { pressure: 500, temp: -20, dewpoint: -30 },
    ]);
    expect(mostUnstableParcel(s)?.pressure).toBe(900);
  });
});
