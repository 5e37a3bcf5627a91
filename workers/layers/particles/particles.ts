/**
 * Wind particles: the engine integrates them in WASM and writes each step's segments straight
 * into a GL buffer; this layer draws them into a trail texture that fades every frame.
 *
 * Software GL is fill-bound, so a still view fades the trail in place with one blend-only pass
 * (no texture read). When the view pans, the trail is copied shifted by the pan into the other of
 * two textures (ping-pong), so trails stay on the ground instead of smearing across the screen.
 */

import type REGL from 'regl';
import vertex from './particles.vertex.glsl?raw';
import linesVertex from './lines.vertex.glsl?raw';
import fragment from './particles.fragment.glsl?raw';
import fadeFragment from './fade.fragment.glsl?raw';
import decayFragment from './decay.fragment.glsl?raw';
import fullscreenVertex from '../composite/fullscreen.vertex.glsl?raw';

export interface ParticleStyle {
  /** Line width in device pixels. */
  width: number;
  /** Opacity of a fresh segment, 0..1. */
  alpha: number;
  /** Trail multiplier per frame, 0..1: higher means longer trails. */
  fade: number;
}

export interface ParticleProjection {
  worldPx: number;
  canvas: [number, number];
  centerLat: number;
  taylor: boolean;
  merc: [number, number, number];
}

export interface ParticleLayer {
  /** Trail texture drawn last, for the composite pass. */
  readonly trail: REGL.Framebuffer2D;
  resize(width: number, height: number): void;
  /** Uploads this step's vertices: count * 4 floats [fromLon, fromLat, toLon, toLat] relative to the centre. */
  upload(vertices: Float32Array, count: number): void;
  /** Fades the previous trail (shifted by `shift` device pixels) and draws the uploaded step on it. */
  draw(projection: ParticleProjection, style: ParticleStyle, shift: [number, number]): void;
  clear(): void;
  destroy(): void;
}

const DEG = Math.PI / 180;
/** Subtracted from the trail every frame after the fade multiplication (1.5 / 255). */
const DECAY = 1.5 / 255;

/** Taylor coefficients of f(lat) = ln tan(pi/4 + lat/2) around a latitude: f', f''/2, f'''/6. */
export function mercatorTaylor(latDeg: number): [number, number, number] {
  const phi = latDeg * DEG;
  const sec = 1 / Math.cos(phi);
  const tan = Math.tan(phi);
  return [sec, (sec * tan) / 2, (sec * tan * tan + sec * sec * sec) / 6];
}

/** From this zoom on the view spans a few degrees and the Taylor series beats float32 cancellation. */
export const TAYLOR_FROM_ZOOM = 7;

export function createParticleLayer(regl: REGL.Regl, width: number, height: number, instanced: boolean): ParticleLayer {
  const vertexBuffer = regl.buffer({ usage: 'stream', type: 'float', length: 16 });
  const corners = regl.buffer([0, -1, 1, -1, 0, 1, 0, 1, 1, -1, 1, 1]);
  const fullscreen = regl.buffer([-1, -1, 3, -1, -1, 3]);
  const makeTarget = (w: number, h: number) => regl.framebuffer({
    color: regl.texture({ width: w, height: h, min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' }),
    depthStencil: false,
  });
  let targets = [makeTarget(width, height), makeTarget(width, height)];
  let current = 0;
  let count = 0;
  let size: [number, number] = [width, height];

  interface DrawProps { p: ParticleProjection; s: ParticleStyle }
  const uniforms = {
    u_worldPx: (_: unknown, { p }: DrawProps) => p.worldPx,
    u_canvas: (_: unknown, { p }: DrawProps) => p.canvas,
    u_centerLat: (_: unknown, { p }: DrawProps) => p.centerLat,
    u_taylor: (_: unknown, { p }: DrawProps) => (p.taylor ? 1 : 0),
    u_merc: (_: unknown, { p }: DrawProps) => p.merc,
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

  interface DecayProps { fade: number }
  const decayPass = regl<Record<string, unknown>, Record<string, unknown>, DecayProps>({
    vert: fullscreenVertex,
    frag: decayFragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: { u_decay: DECAY },
    depth: { enable: false },
    blend: {
      enable: true,
      equation: 'reverse subtract',
      func: { src: 'one', dst: 'constant alpha' },
      // regl accepts a dynamic blend colour; its typings do not say so.
      color: ((_: unknown, p: DecayProps) => [0, 0, 0, p.fade]) as unknown as [number, number, number, number],
    },
  });

  interface FadeProps { prev: REGL.Framebuffer2D; shift: [number, number]; fade: number }
  const fadePass = regl<Record<string, unknown>, Record<string, unknown>, FadeProps>({
    vert: fullscreenVertex,
    frag: fadeFragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: {
      u_prev: regl.prop<FadeProps, 'prev'>('prev'),
      u_shift: regl.prop<FadeProps, 'shift'>('shift'),
      u_fade: regl.prop<FadeProps, 'fade'>('fade'),
    },
    depth: { enable: false },
  });

  return {
    get trail() {
      return targets[current];
    },
    resize(w, h) {
      if (w === size[0] && h === size[1]) return;
      size = [w, h];
      for (const t of targets) t.resize(w, h);
      this.clear();
    },
    upload(vertices, n) {
      count = n;
      vertexBuffer({ data: vertices.subarray(0, n * 4), usage: 'stream' });
    },
    draw(p, s, shift) {
      if (shift[0] !== 0 || shift[1] !== 0) {
        const prev = targets[current];
        current = 1 - current;
        // Framebuffer texture v runs upwards, screen y downwards.
        const uvShift: [number, number] = [shift[0] / size[0], -shift[1] / size[1]];
        regl({ framebuffer: targets[current] })(() => fadePass({ prev, shift: uvShift, fade: s.fade }));
      } else {
        regl({ framebuffer: targets[current] })(() => decayPass({ fade: s.fade }));
      }
      if (count > 0) regl({ framebuffer: targets[current] })(() => drawSegments({ p, s }));
    },
    clear() {
      for (const t of targets) regl.clear({ color: [0, 0, 0, 0], framebuffer: t });
    },
    destroy() {
      vertexBuffer.destroy();
      corners.destroy();
      fullscreen.destroy();
      for (const t of targets) t.destroy();
      targets = [];
    },
  };
}
