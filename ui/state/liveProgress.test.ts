import { describe, expect, it } from 'vitest';
import { bestRealProduct, servedChanged } from './liveProgress.ts';

const run = (ident: string, served: number, done = served) => ({ ident, ref: '2026112612', done, total: 121, served });

describe('bestRealProduct (SPEC §4 product selection among served real products)', () => {
  const served = [{ ident: 'demo', ref: '', demo: true }, { ident: 'gfs', ref: '2026112612' }, { ident: 'iconEu', ref: '2026112612' }];

  it('takes the preferred product when it is served and covers the place', () => {
    expect(bestRealProduct(served, 'iconEu', 50, 14)).toBe('iconEu');
  });

  it('skips a preferred product that does not cover the place, or is not served', () => {
    expect(bestRealProduct(served, 'iconEu', -30, 140)).toBe('gfs');
    expect(bestRealProduct(served, 'ecmwf', 50, 14)).toBe('gfs');
  });

  it('never answers the demo product', () => {
    expect(bestRealProduct([served[0]], 'ecmwf', 50, 14)).toBeNull();
  });
});

describe('servedChanged', () => {
  it('is true when more of a run is served, or a run is done', () => {
    expect(servedChanged([run('gfs', 1)], [run('gfs', 2)])).toBe(true);
    expect(servedChanged([run('gfs', 1)], [])).toBe(true);
    expect(servedChanged([], [run('gfs', 1)])).toBe(true);
  });

  it('is false while only steps are built, not served (a later run is served when whole)', () => {
    expect(servedChanged([run('gfs', 0, 3)], [run('gfs', 0, 9)])).toBe(false);
    expect(servedChanged([], [])).toBe(false);
  });
});
