import { describe, expect, it } from 'vitest';
import { acceptsGzip } from './tiles.ts';

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['*', true],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
  ])('%j -> %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
