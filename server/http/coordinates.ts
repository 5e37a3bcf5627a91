/**
 * Coordinates in request paths and queries (SPEC §5 "URL: lat/lon signed decimals", §9 bounds lat
 * ±90, lon ±720). They arrive as text and are read with a strict grammar — optional sign, digits,
 * optional fraction, and the exponent JavaScript writes for tiny numbers (String(1.2e-7) is
 * "1.2e-7") — then checked for range, so nothing else that Number() would also take ("Infinity",
 * "0x10", " 12", "") and nothing that overflows ("1e400") reaches a route: every coordinate is
 * finite and in range, or the answer is a 400.
 */

import { MAX_LAT, MAX_LON } from '../../common/url.ts';
import { badRequest } from './httpError.ts';

/** The JSON schema of a coordinate as text; parseCoordinate checks its grammar and range. */
export const COORDINATE_SCHEMA = { type: 'string', minLength: 1, maxLength: 32 } as const;

const DECIMAL = /^[+-]?[0-9]{1,3}(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?$/;

const AXES = {
  lat: { max: MAX_LAT, what: 'latitude' },
  lon: { max: MAX_LON, what: 'longitude' },
} as const;

/** The number a coordinate's text stands for; a 400 naming the field unless it is a decimal within the map bounds. */
export function parseCoordinate(text: string, axis: keyof typeof AXES, field: string = axis): number {
  const { max, what } = AXES[axis];
  const value = DECIMAL.test(text) ? Number(text) : NaN;
  if (!(Math.abs(value) <= max)) {
    throw badRequest(`${field} "${text.length > 32 ? `${text.slice(0, 32)}...` : text}" is not a ${what}: a decimal number of degrees from -${max} to ${max}`);
  }
  return value;
}
