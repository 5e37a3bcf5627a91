import { describe, expect, it } from 'vitest';
import { demoSystemsAt, evaluateGrid, evaluatePoint, type DemoFields } from './demoModel.ts';
import { EARTH_RADIUS_M } from './systems.ts';
import { getLandMask, LandChannel } from './landMask.ts';
import { HOUR_MS } from '../../common/time.ts';

const JANUARY = Date.UTC(2025, 0, 15, 12);
const JULY = Date.UTC(2025, 6, 15, 12);
const KELVIN = 273.15;

/** A 1° global grid (cell centres, so no pole rows dominate). */
const LATS = Float64Array.from({ length: 180 }, (_, j) => 89.5 - j);
const LONS = Float64Array.from({ length: 360 }, (_, i) => -179.5 + i);

function globalFields(time: number): DemoFields {
  return evaluateGrid(LATS, LONS, time);
}

/** Area-weighted mean of a per-node quantity over the 1° grid, optionally over a latitude band. */
function areaMean(value: (k: number) => number, latFilter: (lat: number) => boolean = () => true): number {
  let sum = 0;
  let weight = 0;
  for (let j = 0; j < LATS.length; j++) {
    if (!latFilter(LATS[j])) continue;
    const w = Math.cos((LATS[j] * Math.PI) / 180);
    for (let i = 0; i < LONS.length; i++) {
      sum += w * value(j * LONS.length + i);
      weight += w;
    }
  }
  return sum / weight;
}

function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const speedOf = (f: DemoFields, k: number) => Math.hypot(f.u[k], f.v[k]);
function min(values: ArrayLike<number>): number {
  let m = Infinity;
  for (let k = 0; k < values.length; k++) m = Math.min(m, values[k]);
  return m;
}
function max(values: ArrayLike<number>): number {
  let m = -Infinity;
  for (let k = 0; k < values.length; k++) m = Math.max(m, values[k]);
  return m;
}

describe('determinism', () => {
  it('gives the same values for the same inputs, whatever was evaluated in between', () => {
    const first = evaluatePoint(48.2, 16.4, JULY);
    globalFields(JULY + 7 * HOUR_MS);
    evaluatePoint(-33, 151, JANUARY);
    expect(evaluatePoint(48.2, 16.4, JULY)).toEqual(first);
  });

  it('gives a grid node exactly the value of the point', () => {
    const lats = Float64Array.from([61.3, 12.25, -40.5]);
    const lons = Float64Array.from([-170.2, 3.7, 99.99]);
    const grid = evaluateGrid(lats, lons, JANUARY + 5 * HOUR_MS);
    for (let j = 0; j < 3; j++) {
      for (let i = 0; i < 3; i++) {
        const p = evaluatePoint(lats[j], lons[i], JANUARY + 5 * HOUR_MS);
        const k = j * 3 + i;
        expect([grid.u[k], grid.v[k], grid.temp[k], grid.pressure[k], grid.clouds[k], grid.rain[k], grid.gust[k]])
          .toEqual([p.u, p.v, p.temp, p.pressure, p.clouds, p.rain, p.gust]);
      }
    }
  });

  it('wraps longitude', () => {
    const a = evaluatePoint(35, -170, JULY);
    const b = evaluatePoint(35, 190, JULY);
    for (const key of ['u', 'v', 'temp', 'pressure', 'clouds', 'gust'] as const) {
      expect(b[key]).toBeCloseTo(a[key], 3);
    }
  });

  it('is the same at the pole whatever the longitude (pressure, temperature, clouds)', () => {
    const a = evaluatePoint(90, 0, JANUARY);
    const b = evaluatePoint(90, 123, JANUARY);
    expect(b.pressure).toBeCloseTo(a.pressure, 1);
    expect(b.temp).toBeCloseTo(a.temp, 1);
    expect(b.clouds).toBeCloseTo(a.clouds, 1);
  });
});

describe.each([
  ['January', JANUARY],
  ['July', JULY],
])('plausibility in %s', (_name, time) => {
  const f = globalFields(time);
  const n = f.u.length;

  it('has winds mostly 0–30 m/s with an area mean of 5–9 m/s', () => {
    const speeds = Float64Array.from({ length: n }, (_, k) => speedOf(f, k));
    expect(quantile(speeds, 0.99)).toBeLessThan(30);
    expect(max(speeds)).toBeLessThan(45);
    const mean = areaMean((k) => speeds[k]);
    expect(mean).toBeGreaterThan(5);
    expect(mean).toBeLessThan(9);
  });

  it('has temperatures of -60..+50 °C, warm tropics and cold poles', () => {
    expect(min(f.temp) - KELVIN).toBeGreaterThan(-60);
    expect(max(f.temp) - KELVIN).toBeLessThan(50);
    expect(areaMean((k) => f.temp[k] - KELVIN, (lat) => Math.abs(lat) < 15)).toBeGreaterThan(22);
    expect(areaMean((k) => f.temp[k] - KELVIN, (lat) => lat > 75)).toBeLessThan(0);
    expect(areaMean((k) => f.temp[k] - KELVIN, (lat) => lat < -75)).toBeLessThan(-5);
    const global = areaMean((k) => f.temp[k] - KELVIN);
    expect(global).toBeGreaterThan(10);
    expect(global).toBeLessThan(20);
  });

  it('has sea-level pressure of 950–1050 hPa averaging near 1013', () => {
    expect(min(f.pressure)).toBeGreaterThan(95_000);
    expect(max(f.pressure)).toBeLessThan(105_000);
    expect(areaMean((k) => f.pressure[k]) / 100).toBeCloseTo(1013, -1);
  });

  it('has clouds of 0–100 % and rain only under thick cloud, dry over most of the globe', () => {
    expect(min(f.clouds)).toBeGreaterThanOrEqual(0);
    expect(max(f.clouds)).toBeLessThanOrEqual(100);
    expect(min(f.rain)).toBeGreaterThanOrEqual(0);
    expect(max(f.rain)).toBeLessThan(40);
    const cloudsWhereRaining = f.clouds.filter((_, k) => f.rain[k] > 0);
    expect(min(cloudsWhereRaining)).toBeGreaterThan(60);
    const raining = areaMean((k) => (f.rain[k] > 0 ? 1 : 0));
    expect(raining).toBeGreaterThan(0.03);
    expect(raining).toBeLessThan(0.3);
    const cloudMean = areaMean((k) => f.clouds[k]);
    expect(cloudMean).toBeGreaterThan(30);
    expect(cloudMean).toBeLessThan(75);
  });

  it('has gusts at least as strong as the wind', () => {
    const shortfall = Float64Array.from({ length: n }, (_, k) => f.gust[k] - speedOf(f, k));
    expect(min(shortfall)).toBeGreaterThanOrEqual(0);
  });
});

/** Offsets a point by a distance (m) along a bearing measured anticlockwise from east, on a local plane. */
function offset(lat: number, lon: number, distance: number, angle: number): [number, number] {
  const dLat = (distance * Math.sin(angle)) / EARTH_RADIUS_M;
  const dLon = (distance * Math.cos(angle)) / (EARTH_RADIUS_M * Math.cos((lat * Math.PI) / 180));
  return [lat + (dLat * 180) / Math.PI, lon + (dLon * 180) / Math.PI];
}

describe('physical consistency', () => {
  const times = [JANUARY, JANUARY + 30 * HOUR_MS, JULY, JULY + 61 * HOUR_MS];
  const deepLows = times.flatMap((time) => demoSystemsAt(time)
    .filter((s) => s.kind === 'low' && s.amplitude < -1500 && Math.abs(s.lat) > 30 && Math.abs(s.lat) < 70)
    .map((s) => ({ time, system: s })));

  it('finds deep mid-latitude lows to test', () => {
    expect(deepLows.length).toBeGreaterThanOrEqual(4);
  });

  it('has winds blowing anticlockwise around northern lows and clockwise around southern ones', () => {
    const circulations: { circulation: number; north: boolean }[] = [];
    for (const { time, system } of deepLows) {
      let circulation = 0;
      const ring = 24;
      for (let k = 0; k < ring; k++) {
        const angle = (2 * Math.PI * k) / ring;
        const [lat, lon] = offset(system.lat, system.lon, 0.35 * system.radius, angle);
        const p = evaluatePoint(lat, lon, time);
        // Tangential component, positive anticlockwise (seen from above).
        circulation += -p.u * Math.sin(angle) + p.v * Math.cos(angle);
      }
      circulations.push({ circulation: circulation / ring, north: system.lat > 0 });
    }
    for (const { circulation, north } of circulations) {
      if (north) expect(circulation).toBeGreaterThan(0.5);
      else expect(circulation).toBeLessThan(-0.5);
    }
    // Cyclonic on average by several m/s (a neighbouring system can weaken one ring).
    const cyclonic = circulations.map(({ circulation, north }) => (north ? circulation : -circulation));
    expect(cyclonic.reduce((a, b) => a + b, 0) / cyclonic.length).toBeGreaterThan(4);
  });

  it('blows roughly along the isobars, turned toward low pressure by friction', () => {
    const angles: number[] = [];
    let towardLow = 0;
    const h = 0.05; // degrees for the centred pressure difference
    for (const time of times) {
      for (let lat = -65; lat <= 65; lat += 5) {
        if (Math.abs(lat) < 25) continue;
        for (let lon = -180; lon < 180; lon += 15) {
          const p = evaluatePoint(lat, lon, time);
          const dx = ((h * Math.PI) / 180) * EARTH_RADIUS_M;
          const dpdx = (evaluatePoint(lat, lon + h, time).pressure - evaluatePoint(lat, lon - h, time).pressure) / (2 * dx * Math.cos((lat * Math.PI) / 180));
          const dpdy = (evaluatePoint(lat + h, lon, time).pressure - evaluatePoint(lat - h, lon, time).pressure) / (2 * dx);
          const gradient = Math.hypot(dpdx, dpdy);
          const speed = Math.hypot(p.u, p.v);
          if (gradient < 5e-4 || speed < 3) continue; // weak gradients: direction is noise
          // Geostrophic direction: k × ∇p / f, i.e. low pressure on the left in the north.
          const sign = lat > 0 ? 1 : -1;
          const gx = -dpdy * sign;
          const gy = dpdx * sign;
          const cos = (p.u * gx + p.v * gy) / (speed * gradient);
          angles.push((Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI);
          if (-(p.u * dpdx + p.v * dpdy) > 0) towardLow++;
        }
      }
    }
    expect(angles.length).toBeGreaterThan(100);
    const median = quantile(angles, 0.5);
    expect(median).toBeGreaterThan(5);
    expect(median).toBeLessThan(45);
    expect(quantile(angles, 0.9)).toBeLessThan(60);
    expect(towardLow / angles.length).toBeGreaterThan(0.9);
  });

  it('changes little in one hour', () => {
    for (const time of [JANUARY, JULY + 5 * HOUR_MS]) {
      const a = globalFields(time);
      const b = globalFields(time + HOUR_MS);
      const change = (key: keyof DemoFields) => quantile(Float64Array.from(a[key], (x, k) => Math.abs(x - b[key][k])), 0.99);
      expect(change('u')).toBeLessThan(2);
      expect(change('v')).toBeLessThan(2);
      expect(change('temp')).toBeLessThan(2.5);
      expect(change('pressure')).toBeLessThan(200);
      expect(change('clouds')).toBeLessThan(15);
      expect(change('rain')).toBeLessThan(2);
    }
  });
});

describe('land and sea', () => {
  /** Mean over a few days at the same hour, so a passing system does not decide the comparison. */
  function meanTemp(lat: number, lon: number, time: number): number {
    let sum = 0;
    for (let day = 0; day < 5; day++) sum += evaluatePoint(lat, lon, time + day * 24 * HOUR_MS).temp;
    return sum / 5;
  }

  it('makes the interior Sahara on a July afternoon warmer than the nearby Atlantic', () => {
    const afternoon = Date.UTC(2025, 6, 15, 13); // ~14:00 local solar time at 12° E
    expect(meanTemp(23, 12, afternoon) - meanTemp(23, -30, afternoon)).toBeGreaterThan(8);
    expect(meanTemp(23, 12, afternoon) - KELVIN).toBeGreaterThan(33);
  });

  it('makes Siberia in January colder than the ocean at the same latitude', () => {
    const january = Date.UTC(2025, 0, 15, 0);
    expect(meanTemp(62, 110, january) - meanTemp(62, -20, january)).toBeLessThan(-12);
    expect(meanTemp(62, 110, january) - KELVIN).toBeLessThan(-15);
  });

  it('has a daily cycle over land that peaks in the afternoon and is damped over the sea', () => {
    const day = Date.UTC(2025, 6, 15, 0);
    const range = (lat: number, lon: number) => {
      const temps = Array.from({ length: 24 }, (_, h) => evaluatePoint(lat, lon, day + h * HOUR_MS).temp);
      return Math.max(...temps) - Math.min(...temps);
    };
    expect(range(45, 100)).toBeGreaterThan(5); // Mongolia
    expect(range(0, -140)).toBeLessThan(3); // central Pacific
  });

  it('makes northern land warmer in July than in January', () => {
    expect(meanTemp(50, 30, JULY) - meanTemp(50, 30, JANUARY)).toBeGreaterThan(15);
  });

  it('slows the wind over land', () => {
    const land = getLandMask();
    let landSum = 0;
    let landCount = 0;
    let seaSum = 0;
    let seaCount = 0;
    for (const time of [JANUARY, JULY, JULY + 100 * HOUR_MS]) {
      const f = globalFields(time);
      for (let j = 0; j < LATS.length; j++) {
        if (Math.abs(LATS[j]) < 25 || Math.abs(LATS[j]) > 65) continue;
        for (let i = 0; i < LONS.length; i += 2) {
          const fraction = land.sample(LATS[j], LONS[i], LandChannel.Fine);
          const speed = speedOf(f, j * LONS.length + i);
          if (fraction > 0.9) { landSum += speed; landCount++; }
          if (fraction < 0.1) { seaSum += speed; seaCount++; }
        }
      }
    }
    expect(landSum / landCount).toBeLessThan(0.85 * (seaSum / seaCount));
  });
});
