/**
 * The thermodynamics of common/sounding checked against the values published with the fixture
 * soundings: the University of Wyoming's columns and station block, and the BUFKIT file's level
 * columns and STNPRM indices (GEMPAK's). Where the publisher's method differs from ours, the test
 * says how, and either reproduces the publisher's method with our functions (tight tolerance) or
 * states the tolerance the difference needs.
 */

import { expect, it } from 'vitest';
import { analyseSounding, liftParcel, mixedLayerParcel } from '../../../common/sounding/analysis.ts';
import {
  dewpointFromMixingRatio, equivalentPotentialTemperature, KELVIN, lclTemperature, mixingRatio, potentialTemperature, saturationVapourPressure,
  temperatureFromPotential, virtualTemperature, wetBulbTemperature,
} from '../../../common/sounding/thermo.ts';
import { describeWithFixtures } from '../../live/testing.ts';
import { parseBufkit } from './bufkit.ts';
import { readSoundingFixture } from './testing.ts';
import { parseUwyoTextList } from './uwyo.ts';

/** The numeric rows of a whitespace-separated table with `width` columns. */
function rows(text: string, width: number): number[][] {
  return text.split(/\r?\n/).map((l) => l.trim().split(/\s+/).map(Number)).filter((r) => r.length === width && r.every(Number.isFinite));
}

describeWithFixtures('indices against the University of Wyoming (OUN 2018-12-22 12 UTC)', () => {
  it('each level\'s mixing ratio, θ, θe and θv match the MIXR, THTA, THTE, THTV columns', async () => {
    const html = await readSoundingFixture('uwyo');
    const table = rows(html.slice(0, html.indexOf('</PRE>')), 11);
    expect(table.length).toBeGreaterThan(100);
    for (const [p, , t, td, , mixr, , , thta, thte, thtv] of table) {
      // MIXR is printed to 0.01 g/kg from T and Td printed to 0.1 °C.
      expect(Math.abs(1000 * mixingRatio(saturationVapourPressure(td), p) - mixr)).toBeLessThan(0.02);
      // UWyo's κ is 2/7 (0.2857) where Bolton's is 0.2854: the difference grows as ln(1000 / p)
      // (0.07 K at 500 hPa, 0.3 K at 100 hPa); with the 0.1 °C rounding of T, 0.15 K below 500 hPa.
      if (p < 500) continue;
      expect(Math.abs(potentialTemperature(t, p) - thta)).toBeLessThan(0.15);
      expect(Math.abs(equivalentPotentialTemperature(p, t, td) - thte)).toBeLessThan(0.15);
      expect(Math.abs(potentialTemperature(virtualTemperature(t, p, td), p) - thtv)).toBeLessThan(0.15);
    }
  });

  it('CAPE, CIN, LCL, lifted index and precipitable water of the station block', async () => {
    const [{ sounding, published }] = parseUwyoTextList(await readSoundingFixture('uwyo'));
    const a = analyseSounding(sounding);
    // A stable winter sounding: no parcel has positive area, and the tables print 0 for CIN then.
    expect(published['CAPE using virtual temperature']).toBe(0);
    expect(published['CINS using virtual temperature']).toBe(0);
    for (const p of Object.values(a.parcels)) {
      expect(p.cape).toBe(0);
      expect(p.cin).toBe(0);
      expect(p.lfc).toBeNull();
    }
    // "for entire sounding": ours integrates the same levels by trapezoids, 10.60 against 10.64 mm.
    expect(Math.abs((a.precipitableWater as number) - published['Precipitable water [mm] for entire sounding'])).toBeLessThan(0.1);

    // UWyo's parcel is the mean of the lowest 500 m (its "Mean mixed layer potential temperature"
    // and "mixing ratio"), not SPC's 100 hPa: our mean over the layer up to the pressure of the
    // station height + 500 m gives the same air...
    const top = sounding.levels.find((l) => (l.height as number) >= (sounding.elevation as number) + 500)!;
    const below = sounding.levels[sounding.levels.indexOf(top) - 1];
    const f = ((sounding.elevation as number) + 500 - (below.height as number)) / ((top.height as number) - (below.height as number));
    const p500m = Math.exp(Math.log(below.pressure) + f * Math.log(top.pressure / below.pressure));
    const ml = mixedLayerParcel(sounding, sounding.levels[0].pressure - p500m)!;
    expect(Math.abs(potentialTemperature(ml.temp, ml.pressure) - published['Mean mixed layer potential temperature'])).toBeLessThan(0.1);
    expect(Math.abs(1000 * mixingRatio(saturationVapourPressure(ml.dewpoint), ml.pressure) - published['Mean mixed layer mixing ratio'])).toBeLessThan(0.05);
    // ... and lifting UWyo's own printed parcel gives its LCL and lifted index.
    const start = sounding.levels[0].pressure;
    const theirs = {
      pressure: start,
      temp: temperatureFromPotential(published['Mean mixed layer potential temperature'], start),
      dewpoint: dewpointFromMixingRatio(published['Mean mixed layer mixing ratio'] / 1000, start),
    };
    const lifted = liftParcel(sounding, theirs, 'mixedLayer');
    expect(Math.abs(lifted.lcl!.pressure - published['Pres [hPa] of the Lifted Condensation Level'])).toBeLessThan(1);
    expect(Math.abs(lclTemperature(theirs.temp, theirs.dewpoint) + KELVIN - published['Temp [K] of the Lifted Condensation Level'])).toBeLessThan(0.15);
    expect(Math.abs(lifted.liftedIndex! - published['Lifted index'])).toBeLessThan(0.15);
    // SPC's 100 hPa mixed layer reaches into the inversion above: a warmer parcel, a smaller index.
    expect(a.parcels.mixedLayer.liftedIndex!).toBeLessThan(published['Lifted index']);
  });
});

describeWithFixtures('indices against BUFKIT\'s (RAP for OUN, 22 hours from 2018-12-19 04 UTC)', () => {
  it('each level\'s θe and wet-bulb temperature match the THTE and TMWC columns', async () => {
    const text = await readSoundingFixture('bufkit');
    const soundingPart = text.slice(0, text.search(/^STN\s/m));
    // Levels are 8 + 2 values wrapped over two lines: PRES TMPC TMWC DWPC THTE DRCT SKNT OMEG / CFRL HGHT.
    const levels = rows(soundingPart, 8).filter((r) => r[0] > 100);
    expect(levels.length).toBeGreaterThan(800);
    let checked = 0;
    for (const [p, t, tw, td, thte] of levels) {
      // GEMPAK's THTE is Bolton's eq. (43) too.
      expect(Math.abs(equivalentPotentialTemperature(p, t, td) - thte)).toBeLessThan(0.15);
      // GEMPAK's wet bulb (PR_TMWB) is its own iteration; ours is Normand's rule on the pseudo-adiabat.
      // They agree to 0.15 K where the air is not very dry (depression under 15 K, above -40 °C);
      // in very dry air (40 K of depression) GEMPAK's is up to 0.5 K warmer.
      if (t - td > 15 || t < -40) continue;
      expect(Math.abs(wetBulbTemperature(p, t, td) - tw)).toBeLessThan(0.15);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('LCLP, LCLT, LIFT, PWAT, CAPE, CINS, LFCT and EQLV of STNPRM', async () => {
    const all = parseBufkit(await readSoundingFixture('bufkit'), 'RAP');
    let convective = 0;
    for (const { sounding, published: P } of all) {
      const a = analyseSounding(sounding);
      const sfc = a.parcels.surface;
      const ml = a.parcels.mixedLayer;
      // GEMPAK's LCL is the surface parcel's, by Bolton's eq. (15) (LCLT) and Poisson (LCLP).
      expect(Math.abs(sfc.lcl!.pressure - P.LCLP)).toBeLessThan(0.5);
      expect(Math.abs(lclTemperature(sfc.start.temp, sfc.start.dewpoint) + KELVIN - P.LCLT)).toBeLessThan(0.05);
      // GEMPAK's LIFT lifts the mean of the lowest 100 hPa, as our mixed layer; it averages T and Td
      // where we average θ and w: 0.25 K.
      expect(Math.abs(ml.liftedIndex! - P.LIFT)).toBeLessThan(0.25);
      // PWAT: ours is 0.6 % lower at most (GEMPAK integrates the mixing ratio of the layer means).
      expect(Math.abs((a.precipitableWater as number) / P.PWAT - 1)).toBeLessThan(0.01);
      // CAPE and CIN are the mixed-layer parcel's, virtual temperatures both sides.
      if (P.CAPE === 0) {
        expect(ml.cape).toBe(0);
        expect(ml.lfc).toBeNull();
        continue;
      }
      convective++;
      // Weak CAPE (20 to 155 J/kg): the LFC agrees within 6 hPa; the EL, where the parcel is barely
      // buoyant for a long way, is up to 30 hPa lower in ours, and our CAPE up to 35 J/kg smaller.
      expect(Math.abs(ml.lfc!.pressure - P.LFCT)).toBeLessThan(6);
      expect(Math.abs(ml.el!.pressure - P.EQLV)).toBeLessThan(30);
      expect(Math.abs(ml.cape - P.CAPE)).toBeLessThan(35);
      expect(Math.abs(ml.cin - P.CINS)).toBeLessThan(10);
    }
    expect(convective).toBe(4);
  });
});
