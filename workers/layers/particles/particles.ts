/**
 * Wind particles: the engine integrates them in WASM and writes each step's segments straight
 * into a GL buffer; this layer draws the segments onto the canvas, whose content fades toward the
 * static layer every frame (composite.ts), so each particle leaves a trail.
 *
 * Real GPUs draw each segment as an instanced quad of the chosen width. Software GL (SwiftShader,
 * llvmpipe) runs instanced draws one instance at a time, so there the segments are 1-pixel lines.
 */

import type REGL from 'regl';
import { mercY } from '../../../common/map.ts';
import projection from './projection.glsl?raw';
import quadsVertex from './particles.vertex.glsl?raw';
import linesSource from './lines.vertex.glsl?raw';
import fragment from './particles.fragment.glsl?raw';

export interface ParticleStyle {
  /** Line width in device pixels (instanced quads only). */
  width: number;
  /** Opacity of a fresh segment, 0..1. */
  alpha: number;
}

export interface ParticleProjection {
  worldPx: number;
  canvas: [number, number];
  centerLat: number;
  taylor: boolean;
  merc: [number, number, number];
  /** Whole turns (360°) added to the particles' longitudes, one draw each: particleCopies. */
  copies: number[];
}

export interface ParticleLayer {
  /** Uploads this step's vertices: count * 4 floats [fromLon, fromLat, toLon, toLat] relative to the centre. */
  upload(vertices: Float32Array, count: number): void;
  /** Draws the uploaded segments into the current framebuffer. */
  draw(projection: ParticleProjection, style: ParticleStyle): void;
  destroy(): void;
}

const DEG = Math.PI / 180;
const vertex = `precision highp float;\n${projection}\n${quadsVertex}`;
const linesVertex = `precision highp float;\n${projection}\n${linesSource}`;

/** Taylor coefficients of f(lat) = ln tan(pi/4 + lat/2) around a latitude: f', f''/2, f'''/6. */
export function mercatorTaylor(latDeg: number): [number, number, number] {
  const phi = latDeg * DEG;
  const sec = 1 / Math.cos(phi);
  const tan = Math.tan(phi);
  return [sec, (sec * tan) / 2, (sec * tan * tan + sec * sec * sec) / 6];
}

/**
 * The copies of the world the particles are drawn in. Their positions come relative to the view
 * centre within ±180°, so on a view wider than the world (SPEC §9: the world repeats) the part
 * beyond ±180° of the centre shows them one turn (or more) away.
 */
export function particleCopies(worldPx: number, canvasWidth: number): number[] {
  const halfTurns = canvasWidth / 2 / worldPx;
  const extra = Math.max(0, Math.ceil(halfTurns - 0.5));
  const out: number[] = [];
  // From 0 - extra, not -extra: a view one world wide gets [0], not [-0].
  for (let k = 0 - extra; k <= extra; k++) out.push(k);
  return out;
}

/** From this zoom on the view spans a few degrees and the Taylor series beats float32 cancellation. */
export const TAYLOR_FROM_ZOOM = 7;

export function createParticleLayer(regl: REGL.Regl, instanced: boolean): ParticleLayer {
  const vertexBuffer = regl.buffer({ usage: 'stream', type: 'float', length: 16 });
  const corners = regl.buffer([0, -1, 1, -1, 0, 1, 0, 1, 1, -1, 1, 1]);
  let count = 0;

  interface DrawProps { p: ParticleProjection; s: ParticleStyle; turn: number }
  const uniforms = {
    u_worldPx: (_: unknown, { p }: DrawProps) => p.worldPx,
    u_canvas: (_: unknown, { p }: DrawProps) => p.canvas,
    u_centerLat: (_: unknown, { p }: DrawProps) => p.centerLat,
    u_centerY: (_: unknown, { p }: DrawProps) => mercY(p.centerLat),
    u_taylor: (_: unknown, { p }: DrawProps) => (p.taylor ? 1 : 0),
    u_merc: (_: unknown, { p }: DrawProps) => p.merc,
    u_shiftLon: (_: unknown, { turn }: DrawProps) => turn * 360,
    u_width: (_: unknown, { s }: DrawProps) => s.width,
    u_alpha: (_: unknown, { s }: DrawProps) => s.alpha,
  };
  const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;

  const drawSegments = instanced
    ? regl<Record<string, unknown>, Record<string, unknown>, DrawProps>({
      vert: vertex,
      frag: fragment,
      attributes: {
        a_corner: { buffer: corners, size: 2 },
        a_from: { buffer: vertexBuffer, size: 2, stride: 16, offset: 0, divisor: 1 },
        a_to: { buffer: vertexBuffer, size: 2, stride: 16, offset: 8, divisor: 1 },
      },
      count: 6,
      instances: () => count,
      uniforms,
      depth: { enable: false },
      blend,
    })
    : regl<Record<string, unknown>, Record<string, unknown>, DrawProps>({
      vert: linesVertex,
      frag: fragment,
      primitive: 'lines',
      attributes: { a_pos: { buffer: vertexBuffer, size: 2, stride: 8, offset: 0 } },
      count: () => count * 2,
      uniforms,
      depth: { enable: false },
      blend,
    });

  return {
    upload(vertices, n) {
      count = n;
      vertexBuffer({ data: vertices.subarray(0, n * 4), usage: 'stream' });
    },
    draw(p, s) {
      if (count > 0) drawSegments(p.copies.map((turn) => ({ p, s, turn })));
    },
    destroy() {
      vertexBuffer.destroy();
      corners.destroy();
    },
  };
}
