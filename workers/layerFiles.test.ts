import { describe, expect, it } from 'vitest';
import { overlayByIdent } from '../common/catalogue/overlays.ts';
import { parseMinifest } from '../common/minifest.ts';
import { particleLayerFor } from './layers/particles/gate.ts';
import { runHas, sameShownData } from './layerFiles.ts';

const overlay = (ident: string) => {
  const o = overlayByIdent(ident);
  if (!o) throw new Error(`no overlay ${ident}`);
  return o;
};

describe('the tile files a layer asks for', () => {
  // The GFS-Wave sample's minifest lists wave height only (no direction or period, so no flow).
  const waveHeightOnly = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[3, 0, 12]], layers: { waves: ['surface'] } }).layers;
  const withFlow = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[3, 0, 12]], layers: { waves: ['surface'], wavesFlow: ['surface'] } }).layers;

  it('leaves out particles whose flow file the run lacks, keeps them where it has it', () => {
    expect(particleLayerOf('waves', waveHeightOnly)).toBeUndefined();
    expect(particleLayerOf('waves', withFlow)?.file).toBe('wavesFlow');
    // Wind particles on the wave-only run: no wind file either.
    expect(particleLayerOf('wind', waveHeightOnly)).toBeUndefined();
  });

  it('asks for every catalogue file of a run that does not list its files (the demo)', () => {
    expect(particleLayerOf('waves', undefined)?.file).toBe('wavesFlow');
    expect(runHas(undefined, 'wind', '850h')).toBe(true);
  });

  it('checks the level too', () => {
    const layers = { wind: ['surface'], temp: ['surface', '850h'] };
    expect(particleLayerFor(overlay('temp'), undefined, { level: 'surface', layers })?.file).toBe('wind');
    expect(particleLayerFor(overlay('temp'), undefined, { level: '850h', layers })).toBeUndefined();
  });
});

describe('what carries over a layer change', () => {
  const ptype = { product: 'gfs', color: 'ptype', level: 'surface' };
  it('the shown step stands in only for the same product, colour layer and level', () => {
    expect(sameShownData(ptype, { ...ptype })).toBe(true);
    expect(sameShownData(ptype, { ...ptype, color: 'cloudtop' })).toBe(false);
    expect(sameShownData(ptype, { ...ptype, product: 'ecmwf' })).toBe(false);
    expect(sameShownData(ptype, { ...ptype, level: '850h' })).toBe(false);
    expect(sameShownData(null, ptype)).toBe(false);
  });
});

function particleLayerOf(ident: string, layers: { [file: string]: readonly string[] } | undefined) {
  return particleLayerFor(overlay(ident), undefined, { level: 'surface', layers });
}
