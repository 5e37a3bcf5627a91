import { describe, expect, it } from 'vitest';
import { PARTICLE_CAP } from '../../../common/map.ts';
import type { ParticleParams } from '../../api.ts';
import { particleCount, particleSpeed, particleStyle, trailFade, TRAIL_KEEP_MAX } from './tuning.ts';

const DEFAULTS: ParticleParams = { multiplier: 1, velocity: 1, width: 1, blending: 1, opacity: 1, anim: 'on' };

describe('particle tuning (SPEC §3 particles settings)', () => {
  it('fills a 1280x720 view with the cap at multiplier 1, fewer on a phone, none at 0', () => {
    expect(particleCount(DEFAULTS, 1280, 720)).toBe(PARTICLE_CAP);
    expect(particleCount(DEFAULTS, 360, 740)).toBe(Math.round((360 * 740) / 60));
    expect(particleCount({ ...DEFAULTS, multiplier: 0 }, 1280, 720)).toBe(0);
    expect(particleCount({ ...DEFAULTS, anim: 'intensive' }, 360, 740)).toBe(Math.round((360 * 740 * 1.5) / 60));
  });

  it('moves particles the same CSS distance on screen at every zoom and pixel ratio', () => {
    // 0.1 CSS px per frame per m/s: degrees per step x CSS pixels per degree.
    for (const [worldPx, ratio] of [[512, 1], [4096, 2], [65536, 1]]) {
      expect(particleSpeed(DEFAULTS, worldPx, ratio) * (worldPx / ratio / 360)).toBeCloseTo(0.1, 12);
    }
    expect(particleSpeed({ ...DEFAULTS, velocity: 2 }, 512, 1)).toBeCloseTo(2 * particleSpeed(DEFAULTS, 512, 1), 12);
  });

  it('widens lines with the setting and the pixel ratio, and caps the opacity at 1', () => {
    expect(particleStyle(DEFAULTS, 1).width).toBeCloseTo(1.3, 12);
    expect(particleStyle(DEFAULTS, 1).alpha).toBeCloseTo(0.55, 12);
    expect(particleStyle(DEFAULTS, 2).width).toBeCloseTo(2.6, 12);
    expect(particleStyle({ ...DEFAULTS, opacity: 2 }, 1).alpha).toBe(1);
  });

  it('fades every other frame on software GL with the squared factor: the same trail length', () => {
    const hardware = trailFade(DEFAULTS, false);
    const software = trailFade(DEFAULTS, true);
    expect(hardware.every).toBe(1);
    expect(hardware.keep).toBeCloseTo(0.92, 12);
    expect(software.every).toBe(2);
    expect(software.keep).toBeCloseTo(hardware.keep ** 2, 12);
    expect(trailFade({ ...DEFAULTS, blending: 2 }, false).keep).toBeLessThanOrEqual(TRAIL_KEEP_MAX);
  });
});
