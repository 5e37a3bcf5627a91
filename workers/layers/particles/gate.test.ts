import { describe, expect, it } from 'vitest';
import { colorLayerOf, OVERLAYS, RENDER_LAYERS, type Overlay } from '../../../common/catalogue/overlays.ts';
import { layerFiles, particleLayerFor } from './gate.ts';

const byIdent = (ident: string) => OVERLAYS.find((o) => o.ident === ident)!;

describe('particle gating (SPEC §3 hide-particles flag)', () => {
  it('runs the wind particles under wind and rain, and fetches their wind tiles beside the colour layer', () => {
    for (const ident of ['wind', 'rain']) {
      const overlay = byIdent(ident);
      const particles = particleLayerFor(overlay);
      expect(particles?.renderer, ident).toBe('particles');
      expect(layerFiles(colorLayerOf(overlay), particles, true)).toContain('wind');
    }
  });

  it('never runs them for an overlay with hideParticles, even one whose layers list particles or a file that has wind', () => {
    const flagged = OVERLAYS.filter((o) => o.hideParticles);
    expect(flagged.map((o) => o.ident)).toEqual(expect.arrayContaining(['rainAccu', 'gustAccu']));
    const rainWithoutParticles: Overlay = { ...byIdent('rain'), hideParticles: true };
    const fileWithWind = { particleLayer: () => RENDER_LAYERS.windParticles };
    for (const overlay of [...flagged, rainWithoutParticles]) {
      expect(particleLayerFor(overlay), overlay.ident).toBeUndefined();
      expect(particleLayerFor(overlay, fileWithWind), overlay.ident).toBeUndefined();
      expect(layerFiles(colorLayerOf(overlay), particleLayerFor(overlay), true), overlay.ident).toEqual([colorLayerOf(overlay).file]);
    }
  });

  it('fetches no particle tiles while particles are off', () => {
    const wind = byIdent('rain');
    expect(layerFiles(colorLayerOf(wind), particleLayerFor(wind), false)).toEqual(['rain']);
  });
});
