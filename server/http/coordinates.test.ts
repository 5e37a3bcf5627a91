import { describe, expect, it } from 'vitest';
import { parseCoordinate } from './coordinates.ts';
import { HttpError } from './httpError.ts';

describe('parseCoordinate (SPEC §5 signed decimals, §9 bounds lat ±90, lon ±720)', () => {
  it.each([
    ['50.087', 'lat', 50.087], ['-90', 'lat', -90], ['+14.421', 'lon', 14.421], ['720', 'lon', 720], ['-720.0', 'lon', -720], ['0', 'lat', 0], ['1.2e-7', 'lon', 1.2e-7], ['1e1', 'lat', 10],
  ] as const)('%s is the %s %f', (text, axis, value) => {
    expect(parseCoordinate(text, axis)).toBe(value);
  });

  it.each([
    ['Infinity', 'lat'], ['-Infinity', 'lon'], ['1e400', 'lon'], ['-1e999', 'lon'], ['1e2', 'lat'], ['NaN', 'lat'], ['0x10', 'lat'], ['1e', 'lat'],
    [' 12', 'lat'], ['12 ', 'lat'], ['', 'lat'], ['90.0001', 'lat'], ['-90.5', 'lat'], ['720.01', 'lon'], ['1000', 'lon'], ['1.', 'lat'],
    ['.5', 'lat'], ['1,5', 'lat'], ['--1', 'lat'], ['1\u00000', 'lat'],
  ] as const)('%j is refused as a %s with a 400 naming it', (text, axis) => {
    let error: unknown;
    try {
      parseCoordinate(text, axis);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
    expect((error as HttpError).message).toContain(`${axis} "`);
  });
});
