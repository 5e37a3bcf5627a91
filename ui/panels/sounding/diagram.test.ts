/**
 * The skew-T's geometry and background lines: the log-p axis and the 45° skew, the axis ticks,
 * the dry adiabats against MetPy's documented worked example (metpy.calc.dry_lapse), the moist
 * adiabats and mixing-ratio lines (common/sounding/thermo.ts, tested there), profile read-out,
 * wind barb glyphs and the hodograph's geometry.
 */

import { describe, expect, it } from 'vitest';
import {
  barbGlyph, barbPath, dryAdiabatTemperature, hodographPoints, hodographRings, hodographSegments, isotherms, mixingRatioTemperature,
  moistAdiabatAt, pressureAt, pressureTicks, skewTFrame,
  spacedOut, temperatureAt, valueAtPressure, windComponents, xOf, yOf,
} from './diagram.ts';

const frame = skewTFrame(474, 430);

describe('skew-T frame', () => {
  it('puts 1050 hPa at the bottom and 100 hPa at the top, linear in ln p', () => {
    expect(yOf(frame, 1050)).toBeCloseTo(430, 9);
    expect(yOf(frame, 100)).toBeCloseTo(0, 9);
    // Equal pressure ratios are equal distances: 1000 -> 500 as 500 -> 250 as 200 -> 100.
    const d = yOf(frame, 1000) - yOf(frame, 500);
    expect(yOf(frame, 500) - yOf(frame, 250)).toBeCloseTo(d, 9);
    expect(yOf(frame, 200) - yOf(frame, 100)).toBeCloseTo(d, 9);
    // ln(1050/100) spread over the height: 1000 to 500 hPa is ln 2 of it.
    expect(d).toBeCloseTo(430 * Math.LN2 / Math.log(10.5), 9);
    for (const p of [1050, 850, 500, 321.5, 100]) expect(pressureAt(frame, yOf(frame, p))).toBeCloseTo(p, 9);
  });

  it('skews isotherms at 45°: a degree keeps its x offset per px of height', () => {
    expect(xOf(frame, -40, 1050)).toBeCloseTo(0, 9);
    expect(xOf(frame, 50, 1050)).toBeCloseTo(474, 9);
    // Going up by h px moves an isotherm right by h px.
    const up = yOf(frame, 1000) - yOf(frame, 500);
    expect(xOf(frame, 0, 500) - xOf(frame, 0, 1000)).toBeCloseTo(up, 9);
    for (const [t, p] of [[-30, 900], [0, 500], [12.5, 700], [-70, 150]]) {
      expect(temperatureAt(frame, xOf(frame, t, p), yOf(frame, p))).toBeCloseTo(t, 9);
    }
  });

  it('labels the mandatory levels inside the frame', () => {
    expect(pressureTicks(frame)).toEqual([1000, 925, 850, 700, 500, 400, 300, 250, 200, 150, 100]);
    expect(pressureTicks({ ...frame, pTop: 200 })).toEqual([1000, 925, 850, 700, 500, 400, 300, 250, 200]);
  });

  it('draws isotherms every 10 of the user\'s unit, from the top left corner to the bottom right', () => {
    const celsius = isotherms(frame, 10, (c) => c, (c) => c);
    expect(celsius.at(-1)).toEqual({ value: 50, celsius: 50 });
    // The top left corner is -40 °C shifted by the whole height (430 px of a 474 px wide, 90 K scale).
    const coldest = -40 - 430 * 90 / 474;
    expect(celsius[0].value).toBe(Math.ceil(coldest / 10) * 10);
    expect(celsius.map((i) => i.value)).toContain(0);
    // In °F the lines sit on whole tens of °F: 32 °F is no line, 30 °F is, at -1.11 °C.
    const toF = (c: number) => c * 9 / 5 + 32;
    const fromF = (f: number) => (f - 32) * 5 / 9;
    const fahrenheit = isotherms(frame, 10, toF, fromF);
    expect(fahrenheit.map((i) => i.value)).toContain(30);
    expect(fahrenheit.find((i) => i.value === 30)!.celsius).toBeCloseTo(-10 / 9, 9);
    expect(fahrenheit.at(-1)!.value).toBe(120);
  });
});

describe('background lines', () => {
  it('dry adiabats follow Poisson\'s equation (MetPy dry_lapse example: 15 °C from 1000 hPa)', () => {
    // metpy.calc.dry_lapse([1000, 925, 850, 700] hPa, 15 degC) -> 15, 8.65249458, 1.92593808, -12.91786723 degC
    const expected = [15, 8.65249458, 1.92593808, -12.91786723];
    // MetPy's kappa is 2/7, Bolton's (thermo.ts) 0.2854: 0.03 K apart at 700 hPa.
    [1000, 925, 850, 700].forEach((p, i) => expect(Math.abs(dryAdiabatTemperature(15, p) - expected[i])).toBeLessThan(0.05));
  });

  it('a mixing-ratio line is where air is saturated with that mixing ratio', () => {
    // 10 g/kg at 1000 hPa: e = 15.83 hPa, about 13.9 °C (the skew-T's printed 10 g/kg line).
    expect(mixingRatioTemperature(0.01, 1000)).toBeCloseTo(13.85, 1);
  });

  it('a moist adiabat passes through its start and cools going up', () => {
    const got = moistAdiabatAt(5, 925, [925, 850, 700, 500]);
    expect(got[0]).toBeCloseTo(5, 2);
    for (let i = 1; i < got.length; i++) expect(got[i]).toBeLessThan(got[i - 1]);
  });
});

describe('profile read-out', () => {
  const levels = [
    { pressure: 1000, temp: 10, dew: 5 },
    { pressure: 500, temp: -20, dew: null },
    { pressure: 250, temp: -50, dew: null },
  ];
  it('interpolates linearly in ln p between the levels around a pressure', () => {
    expect(valueAtPressure(levels, 1000, (l) => l.temp)).toBe(10);
    expect(valueAtPressure(levels, Math.sqrt(1000 * 500), (l) => l.temp)).toBeCloseTo(-5, 9);
    expect(valueAtPressure(levels, Math.sqrt(500 * 250), (l) => l.temp)).toBeCloseTo(-35, 9);
  });
  it('is null outside the profile and where a level lacks the value', () => {
    expect(valueAtPressure(levels, 1020, (l) => l.temp)).toBeNull();
    expect(valueAtPressure(levels, 200, (l) => l.temp)).toBeNull();
    expect(valueAtPressure(levels, 700, (l) => l.dew)).toBeNull();
  });
});

describe('wind barbs', () => {
  const kt = (k: number) => k / 1.943844;
  it.each([
    [0, { flags: 0, full: 0, half: 0, calm: true }],
    [2, { flags: 0, full: 0, half: 0, calm: true }],
    [5, { flags: 0, full: 0, half: 1, calm: false }],
    [10, { flags: 0, full: 1, half: 0, calm: false }],
    [15, { flags: 0, full: 1, half: 1, calm: false }],
    [47, { flags: 0, full: 4, half: 1, calm: false }],
    [50, { flags: 1, full: 0, half: 0, calm: false }],
    [65, { flags: 1, full: 1, half: 1, calm: false }],
    [103, { flags: 2, full: 0, half: 1, calm: false }],
  ])('%s kt rounds to the nearest 5 kt: %o', (speed, glyph) => {
    expect(barbGlyph(kt(speed))).toEqual(glyph);
  });

  const ends = (d: string) => [...d.matchAll(/(-?\d+\.\d+) (-?\d+\.\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  it('points its staff to where the wind comes from, barbs on the clockwise side', () => {
    // North wind: staff up; its barb reaches east (right).
    const north = ends(barbPath(0, kt(10), 20));
    expect(north[0]).toEqual([0, -20]);
    expect(north.at(-1)![0]).toBeGreaterThan(5);
    // West wind: staff to the west; barbs to the north (up, negative y).
    const west = ends(barbPath(270, kt(10), 20));
    expect(west[0][0]).toBeCloseTo(-20, 9);
    expect(west[0][1]).toBeCloseTo(0, 9);
    expect(west.at(-1)![1]).toBeLessThan(-5);
    // A flag is a closed triangle; calm is no path (a circle is drawn).
    expect(barbPath(90, kt(50))).toMatch(/Z/);
    expect(barbPath(90, kt(1))).toBe('');
  });
});

describe('crowded levels', () => {
  it('keeps the ground and then each level at least the gap above the last one kept', () => {
    const ys = [400, 396, 390, 385, 370, 369, 300];
    expect(spacedOut(ys, (y) => y, 10)).toEqual([400, 390, 370, 300]);
    expect(spacedOut(ys, (y) => y, 0)).toEqual(ys);
    expect(spacedOut([], (y: number) => y, 10)).toEqual([]);
  });
});

describe('hodograph', () => {
  it('turns a wind into u and v: a west wind blows east', () => {
    const w = windComponents(270, 10);
    expect(w.u).toBeCloseTo(10, 9);
    expect(w.v).toBeCloseTo(0, 9);
    const s = windComponents(180, 5);
    expect(s.u).toBeCloseTo(0, 9);
    expect(s.v).toBeCloseTo(5, 9);
  });

  it('takes heights above the ground and leaves out what is below it or above 12 km', () => {
    const levels = [
      { height: 1400, windDir: 180, windSpeed: 5 },
      { height: 1600, windDir: 270, windSpeed: 10 },
      { height: 2600, windDir: null, windSpeed: null },
      { height: 4100, windDir: 270, windSpeed: 20 },
      { height: 14000, windDir: 270, windSpeed: 50 },
    ];
    const points = hodographPoints(levels, 1500);
    expect(points.map((p) => p.agl)).toEqual([100, 2600]);
    // Without the elevation the lowest level is the ground.
    expect(hodographPoints(levels, null).map((p) => p.agl)).toEqual([0, 200, 2700]);
  });

  it('cuts the line at the band boundaries, interpolating the wind in height', () => {
    const segments = hodographSegments([{ agl: 500, u: 0, v: 0 }, { agl: 1500, u: 10, v: 20 }, { agl: 2500, u: 20, v: 20 }]);
    expect(segments.map((s) => s.band)).toEqual([0, 1]);
    expect(segments[0].points.at(-1)).toEqual({ agl: 1000, u: 5, v: 10 });
    expect(segments[1].points[0]).toBe(segments[0].points.at(-1));
    expect(segments[1].points.map((p) => p.agl)).toEqual([1000, 1500, 2500]);
  });

  it('chooses rings on a 1-2-5 step that hold the strongest wind', () => {
    expect(hodographRings(37)).toEqual({ step: 10, count: 4 });
    expect(hodographRings(8)).toEqual({ step: 5, count: 2 });
    expect(hodographRings(140)).toEqual({ step: 50, count: 3 });
  });
});
