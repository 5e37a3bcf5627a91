/**
 * Travelling lows and highs of the demo product.
 *
 * Each family (say, northern-hemisphere lows) has a fixed number of slots. A slot hosts one system
 * at a time and replaces it every `lifeDays` (fixed per slot): life number k = floor(t / life +
 * phase). The system's birth place, speed, depth and size are pseudo-random numbers hashed from
 * (family, slot, k), so they are the same on every machine and for every request. Over its life
 * s ∈ [0, 1) a system moves along its track and its strength follows sin²(π s): it is born and dies
 * at zero strength, so swapping one life for the next never makes a field jump in time.
 *
 * Shape: a pressure anomaly A (1 - q)^3 with q = c² / C², where c is the chord between the point
 * and the centre on the unit sphere and C the chord of the radius of influence. It is smooth,
 * exactly zero beyond that radius (so a tile only visits the systems near it), isotropic on the
 * sphere and free of any pole or antimeridian seam.
 */

import { hash01 } from './hash.ts';
import { DAY_MS } from '../../common/time.ts';

export const EARTH_RADIUS_M = 6_371_000;

export type SystemKind = 'low' | 'high';

export interface PressureSystem {
  kind: SystemKind;
  family: string;
  /** Centre now, degrees (longitude wrapped to [-180, 180)). */
  lat: number;
  lon: number;
  sinLat: number;
  cosLat: number;
  sinLon: number;
  cosLon: number;
  /** Pressure anomaly at the centre now, Pa (negative for lows), life envelope included. */
  amplitude: number;
  /** Radius of influence, m, and 1 / chord² of it on the unit sphere. */
  radius: number;
  chord2: number;
  invChord2: number;
  /** 0..1: how developed the system is now (sin²(π s) times its relative depth). */
  strength: number;
}

interface Range { min: number; max: number }

interface SystemFamily {
  name: string;
  kind: SystemKind;
  /** +1 northern, -1 southern hemisphere. */
  hemisphere: 1 | -1;
  slots: number;
  /** Latitude of birth, degrees poleward (positive) in the family's hemisphere. */
  birthLat: Range;
  /** Poleward shift of the track in local summer, degrees. */
  summerShiftDeg: number;
  /** Poleward drift over a life, degrees. */
  poleDriftDeg: number;
  lifeDays: Range;
  /** Eastward speed, degrees of longitude per day (negative: westward). */
  speedDegPerDay: Range;
  /** Central anomaly magnitude at full strength, Pa. */
  depthPa: Range;
  /** Relative deepening in local winter (storm tracks are stronger in winter). */
  winterGain: number;
  radiusKm: Range;
  /** Depth that counts as strength 1, Pa. */
  referenceDepthPa: number;
}

// Magnitudes after typical synoptic climatology: mid-latitude lows 10–40 hPa deep and 1500–3000 km
// across moving east at 10–15 m/s (about 10–18° of longitude a day at 50°), living 3–7 days;
// anticyclones broader, weaker and slower; tropical disturbances shallow, drifting west.
const FAMILIES: readonly SystemFamily[] = [
  {
    name: 'nh-lows', kind: 'low', hemisphere: 1, slots: 10, birthLat: { min: 36, max: 56 }, summerShiftDeg: 6,
    poleDriftDeg: 10, lifeDays: { min: 3.5, max: 6.5 }, speedDegPerDay: { min: 9, max: 17 },
    depthPa: { min: 1300, max: 3500 }, winterGain: 0.35, radiusKm: { min: 1700, max: 2800 }, referenceDepthPa: 3000,
  },
  {
    name: 'sh-lows', kind: 'low', hemisphere: -1, slots: 11, birthLat: { min: 40, max: 58 }, summerShiftDeg: 4,
    poleDriftDeg: 9, lifeDays: { min: 3, max: 6 }, speedDegPerDay: { min: 11, max: 19 },
    depthPa: { min: 1500, max: 3400 }, winterGain: 0.1, radiusKm: { min: 1800, max: 3000 }, referenceDepthPa: 3000,
  },
  {
    name: 'nh-highs', kind: 'high', hemisphere: 1, slots: 6, birthLat: { min: 30, max: 52 }, summerShiftDeg: 5,
    poleDriftDeg: -3, lifeDays: { min: 5, max: 9 }, speedDegPerDay: { min: 3, max: 9 },
    depthPa: { min: 500, max: 1400 }, winterGain: 0.3, radiusKm: { min: 2500, max: 3800 }, referenceDepthPa: 1200,
  },
  {
    name: 'sh-highs', kind: 'high', hemisphere: -1, slots: 6, birthLat: { min: 28, max: 45 }, summerShiftDeg: 4,
    poleDriftDeg: -2, lifeDays: { min: 5, max: 9 }, speedDegPerDay: { min: 4, max: 10 },
    depthPa: { min: 500, max: 1300 }, winterGain: 0.2, radiusKm: { min: 2500, max: 3800 }, referenceDepthPa: 1200,
  },
  {
    name: 'nh-tropical', kind: 'low', hemisphere: 1, slots: 5, birthLat: { min: 8, max: 18 }, summerShiftDeg: 4,
    poleDriftDeg: 7, lifeDays: { min: 4, max: 8 }, speedDegPerDay: { min: -7, max: -3 },
    depthPa: { min: 150, max: 500 }, winterGain: -0.6, radiusKm: { min: 1100, max: 1800 }, referenceDepthPa: 600,
  },
  {
    name: 'sh-tropical', kind: 'low', hemisphere: -1, slots: 3, birthLat: { min: 8, max: 16 }, summerShiftDeg: 3,
    poleDriftDeg: 6, lifeDays: { min: 4, max: 8 }, speedDegPerDay: { min: -6, max: -3 },
    depthPa: { min: 150, max: 450 }, winterGain: -0.6, radiusKm: { min: 1100, max: 1800 }, referenceDepthPa: 600,
  },
];

const lerp = (r: Range, t: number) => r.min + (r.max - r.min) * t;
const toRad = Math.PI / 180;

/**
 * All systems at a time. `summer` is +1 at the height of northern summer and -1 in northern
 * winter (season.ts seasonCycle); tracks shift poleward and weaken in their local summer.
 */
export function pressureSystemsAt(timeMs: number, summer: number): PressureSystem[] {
  const systems: PressureSystem[] = [];
  const days = timeMs / DAY_MS;
  FAMILIES.forEach((family, f) => {
    const localSummer = summer * family.hemisphere;
    for (let slot = 0; slot < family.slots; slot++) {
      const life = lerp(family.lifeDays, hash01(f, slot, 1));
      const position = days / life + hash01(f, slot, 2);
      const k = Math.floor(position);
      const s = position - k;
      const envelope = Math.sin(Math.PI * s) ** 2;
      const random = (salt: number) => hash01(f * 64 + slot, k, salt);
      const depth = lerp(family.depthPa, random(3)) * Math.max(0.1, 1 - family.winterGain * localSummer);
      if (depth * envelope < 1) continue; // under 1 Pa: invisible, skipping it cannot show
      const polewardLat = lerp(family.birthLat, random(4)) + family.summerShiftDeg * localSummer + family.poleDriftDeg * s;
      const lat = family.hemisphere * Math.min(80, polewardLat);
      const lonRaw = -180 + 360 * random(5) + lerp(family.speedDegPerDay, random(6)) * life * s;
      const lon = ((((lonRaw + 180) % 360) + 360) % 360) - 180;
      // Systems grow as they deepen and keep some size when they fill.
      const radius = lerp(family.radiusKm, random(7)) * 1000 * (0.75 + 0.25 * Math.sin(Math.PI * s));
      const chord = 2 * Math.sin(radius / EARTH_RADIUS_M / 2);
      const amplitude = (family.kind === 'low' ? -1 : 1) * depth * envelope;
      systems.push({
        kind: family.kind, family: family.name, lat, lon,
        sinLat: Math.sin(lat * toRad), cosLat: Math.cos(lat * toRad),
        sinLon: Math.sin(lon * toRad), cosLon: Math.cos(lon * toRad),
        amplitude, radius, chord2: chord * chord, invChord2: 1 / (chord * chord),
        strength: Math.min(1.5, (depth / family.referenceDepthPa) * envelope),
      });
    }
  });
  return systems;
}
