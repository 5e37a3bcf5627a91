import { describe, expect, it } from 'vitest';
import { availableLevels, levelFor, productCovers, productForOverlay, visibleProducts, overlaysOf } from './layerRules.ts';
import { overlayByIdent } from './overlays.ts';
import { PRODUCTS } from './products.ts';

const o = (ident: string) => overlayByIdent(ident)!;

describe('levels (SPEC §3, §4)', () => {
  it.each<[string, string, string[]]>([
    ['gfs', 'wind', ['surface', '975h', '950h', '925h', '900h', '850h', '800h', '700h', '600h', '500h', '400h', '300h', '250h', '200h', '150h', '10h', '100m'].filter((l) => PRODUCTS.gfs.levels.includes(l))],
    ['gfs', 'gust', ['surface']],
    ['gfs', 'cape', ['surface']],
    ['demo', 'temp', ['surface']],
  ])('%s %s offers %j', (product, overlay, levels) => {
    expect(availableLevels(PRODUCTS[product], o(overlay))).toEqual(levels);
  });

  it('100m is for wind only; temperature has pressure levels but not 100m', () => {
    const p = PRODUCTS['gfs2p5-20170322'];
    expect(availableLevels(p, o('wind'))).toContain('100m');
    expect(availableLevels(p, o('temp'))).not.toContain('100m');
    expect(availableLevels(p, o('temp'))).toContain('500h');
  });

  it('an unavailable level becomes the first, i.e. surface', () => {
    expect(levelFor('850h', PRODUCTS.gfs, o('gust'))).toBe('surface');
    expect(levelFor('850h', PRODUCTS.gfs, o('temp'))).toBe('850h');
    expect(levelFor('100m', PRODUCTS.gfs, o('temp'))).toBe('surface');
  });
});

describe('product selection (SPEC §4)', () => {
  it('bounds decide which products are visible', () => {
    expect(productCovers(PRODUCTS.gfs, 80, 100)).toBe(true);
    expect(productCovers(PRODUCTS.iconEu, 50, 14)).toBe(true);
    expect(productCovers(PRODUCTS.iconEu, -33, 151)).toBe(false);
    expect(visibleProducts(['gfs', 'iconEu', 'gfswave-20260819'], 60, 0)).toEqual(['gfs', 'iconEu']);
    expect(visibleProducts(['gfswave-20260819'], 0, 540)).toEqual(['gfswave-20260819']);
  });

  it.each<[string, string, string, string[], string | null]>([
    ['current has it', 'temp', 'gfs', ['gfs', 'ecmwf'], 'gfs'],
    ['preferred next', 'cape', 'demo', ['demo', 'gfs', 'ecmwf'], 'ecmwf'],
    ['else first visible that has it', 'waves', 'demo', ['demo', 'gfswave-20260819'], 'gfswave-20260819'],
    ['none has it', 'pm2p5', 'demo', ['demo', 'gfs'], null],
  ])('%s', (_, overlay, current, visible, expected) => {
    expect(productForOverlay(overlay, current, 'ecmwf', visible)).toBe(expected);
  });

  it('lists the overlays of served products in catalogue order', () => {
    expect(overlaysOf(['demo'])).toEqual(PRODUCTS.demo.overlays.filter((x) => overlayByIdent(x)).sort((a, b) => overlaysOf(['demo']).indexOf(a) - overlaysOf(['demo']).indexOf(b)));
    expect(overlaysOf(['demo', 'gfswave-20260819'])).toContain('waves');
  });
});
