/**
 * How the particle settings (SPEC §3/§5 particles: multiplier, velocity, width, blending, opacity,
 * each 0..2 with 1 the default; particlesAnim on / off / intensive) become numbers on screen.
 */

import { PARTICLE_CAP } from '../../../common/map.ts';
import type { ParticleParams } from '../../api.ts';
import type { ParticleStyle } from './particles.ts';

/** On-screen speed at velocity 1: CSS pixels per frame per m/s of wind. */
export const PX_PER_FRAME_PER_MS = 0.1;
/** Screen area per particle at multiplier 1, CSS px²: 15 000 particles (the cap) on a 1280x720 view. */
export const PX2_PER_PARTICLE = 60;
/** "intensive" animation: this many times the particles, this many times as wide. */
export const INTENSIVE_COUNT = 1.5;
export const INTENSIVE_WIDTH = 1.4;
/** Line width in CSS pixels: base + per unit of the width setting. */
export const WIDTH_BASE_PX = 0.6;
export const WIDTH_PER_SETTING_PX = 0.7;
/** Opacity of a fresh segment: base + per unit of the opacity setting, at most 1. */
export const ALPHA_BASE = 0.1;
export const ALPHA_PER_SETTING = 0.45;
/** Share of a trail's brightness kept each frame: base + per unit of blending, at most TRAIL_KEEP_MAX. */
export const TRAIL_KEEP_BASE = 0.86;
export const TRAIL_KEEP_PER_SETTING = 0.06;
export const TRAIL_KEEP_MAX = 0.985;
/**
 * The fade is a full-screen pass, what a software renderer pays most for: there it runs every
 * this many frames with the factor to that power, which leaves the trails' length as they were.
 */
export const SOFTWARE_FADE_EVERY = 2;

export function particleCount(p: ParticleParams, cssWidth: number, cssHeight: number): number {
  const factor = p.multiplier * (p.anim === 'intensive' ? INTENSIVE_COUNT : 1);
  return Math.max(0, Math.min(PARTICLE_CAP, Math.round((cssWidth * cssHeight / PX2_PER_PARTICLE) * factor)));
}

/** Degrees per (m/s) per step, so that the on-screen speed is the same at every zoom. */
export function particleSpeed(p: ParticleParams, worldPx: number, pixelRatio: number): number {
  const cssWorld = worldPx / pixelRatio;
  return (PX_PER_FRAME_PER_MS * p.velocity * 360) / cssWorld;
}

export function particleStyle(p: ParticleParams, pixelRatio: number): ParticleStyle {
  return {
    width: (WIDTH_BASE_PX + WIDTH_PER_SETTING_PX * p.width) * pixelRatio * (p.anim === 'intensive' ? INTENSIVE_WIDTH : 1),
    alpha: Math.min(1, ALPHA_PER_SETTING * p.opacity + ALPHA_BASE),
  };
}

/** The fade of one trail pass and how often it runs (every `every` frames). */
export function trailFade(p: ParticleParams, software: boolean): { keep: number; every: number } {
  const every = software ? SOFTWARE_FADE_EVERY : 1;
  return { keep: Math.min(TRAIL_KEEP_MAX, TRAIL_KEEP_BASE + TRAIL_KEEP_PER_SETTING * p.blending) ** every, every };
}
