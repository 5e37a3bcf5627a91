/**
 * Headwind and crosswind on a runway (the airport window's runway list). Method: the wind vector
 * resolved along and across the runway, headwind = V cos θ and crosswind = V sin θ with θ the angle
 * from the runway heading to the direction the wind blows from: the relations the crosswind
 * component chart of the FAA Pilot's Handbook of Aeronautical Knowledge (FAA-H-8083-25, chapter
 * "Aircraft Performance") is drawn from.
 */

const DEG = Math.PI / 180;

export interface RunwayWind {
  /** Along the runway, positive into the aircraft's nose (negative: tailwind). Same unit as the speed given. */
  headwind: number;
  /** Across the runway, positive from the right, negative from the left. */
  crosswind: number;
}

/** Components of a wind from `windFromDeg` at `speed` on a runway end of heading `runwayHeadingDeg` (both true). */
export function runwayWind(windFromDeg: number, speed: number, runwayHeadingDeg: number): RunwayWind {
  const theta = (windFromDeg - runwayHeadingDeg) * DEG;
  // Rounding noise (cos 90° = 6e-17) would show as a "tailwind" of -0: values are exact to 1e-9.
  const clean = (v: number) => (Math.abs(v) < 1e-9 ? 0 : v);
  return { headwind: clean(speed * Math.cos(theta)), crosswind: clean(speed * Math.sin(theta)) };
}

/**
 * The heading of a runway end from its designator when the data has no true heading: "09L" is
 * 090° (magnetic, rounded to ten degrees: an approximation within ±5° plus the local variation).
 * null for designators that name no direction (helipads "H1", "N", "NE").
 */
export function headingFromDesignator(ident: string): number | null {
  const m = /^(\d{1,2})[LCRW]?$/.exec(ident.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 36 ? n * 10 : null;
}
