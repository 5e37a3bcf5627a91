/**
 * The globe's layers (SPEC §2 window "globe"): the disc, the basemap's land, coastlines and borders
 * and a graticule projected in the vertex shaders (projection.glsl), and the particles' steps
 * projected the same way. The colour raster draws on the globe through its own fragment shader's
 * inverse projection (raster.fragment.glsl, u_globe). The far side is cut at the limb's plane by
 * the depth range, so nothing behind the globe shows through.
 */

import type REGL from 'regl';
import type { BasemapMeshes } from '../basemap/basemap.ts';
import type { GlobeFrame } from '../../gl/globeTransform.ts';
import type { ParticleStyle } from '../particles/particles.ts';
import projection from './projection.glsl?raw';
import meshSource from './mesh.vertex.glsl?raw';
import lonLatSource from './lonlat.vertex.glsl?raw';
import discFragment from './disc.fragment.glsl?raw';
import particlesSource from './particles.vertex.glsl?raw';
import linesSource from './lines.vertex.glsl?raw';
import basemapFragment from '../basemap/basemap.fragment.glsl?raw';
import particleFragment from './particles.fragment.glsl?raw';

type Rgba = [number, number, number, number];

export const GLOBE_COLORS = {
  /** Space around the globe: darker than the sea, so the disc reads as a sphere. */
  space: [0.015, 0.02, 0.035, 1] as Rgba,
  sea: [0.055, 0.09, 0.15, 1] as Rgba,
  land: [0.17, 0.19, 0.21, 1] as Rgba,
  coast: [1, 1, 1, 0.55] as Rgba,
  borders: [1, 1, 1, 0.3] as Rgba,
  graticule: [1, 1, 1, 0.1] as Rgba,
};

/** Graticule arcs are cut into pieces this long (degrees), so they bend with the sphere. */
const GRATICULE_PIECE_DEG = 2;
/** Meridians stop short of the poles, where they all meet. */
const GRATICULE_MAX_LAT = 80;

const vert = (source: string) => `precision highp float;\n${projection}\n${source}`;

/** Graticule of the globe: meridians and parallels every `step` degrees, as line pieces in lon/lat. */
export function globeGraticule(step: number): Float32Array {
  const out: number[] = [];
  for (let lon = -180; lon < 180; lon += step) {
    for (let lat = -GRATICULE_MAX_LAT; lat < GRATICULE_MAX_LAT; lat += GRATICULE_PIECE_DEG) {
      out.push(lon, lat, lon, Math.min(GRATICULE_MAX_LAT, lat + GRATICULE_PIECE_DEG));
    }
  }
  for (let lat = -GRATICULE_MAX_LAT; lat <= GRATICULE_MAX_LAT + 1e-9; lat += step) {
    for (let lon = -180; lon < 180; lon += GRATICULE_PIECE_DEG) out.push(lon, lat, lon + GRATICULE_PIECE_DEG, lat);
  }
  return new Float32Array(out);
}

export interface GlobeLayer {
  drawDisc(f: GlobeFrame): void;
  drawFill(f: GlobeFrame, meshes: BasemapMeshes | null): void;
  drawLines(f: GlobeFrame, meshes: BasemapMeshes | null, graticuleStep: number | null): void;
  /** Uploads this step's particle vertices (count * 4 floats, relative to the centre). */
  uploadParticles(vertices: Float32Array, count: number): void;
  drawParticles(f: GlobeFrame, style: ParticleStyle): void;
  destroy(): void;
}

export function createGlobeLayer(regl: REGL.Regl, instanced: boolean): GlobeLayer {
  const fullscreen = regl.buffer([-1, -1, 3, -1, -1, 3]);
  const particleBuffer = regl.buffer({ usage: 'stream', type: 'float', length: 16 });
  const corners = regl.buffer([0, -1, 1, -1, 0, 1, 0, 1, 1, -1, 1, 1]);
  let particleCount = 0;
  let graticule: { step: number; buffer: REGL.Buffer; count: number } | null = null;

  const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;
  const projectionUniforms = {
    u_center: (_: unknown, p: { f: GlobeFrame }) => p.f.center,
    u_clipRadius: (_: unknown, p: { f: GlobeFrame }) => p.f.clipRadius,
  };

  interface DiscProps { f: GlobeFrame; color: Rgba }
  const disc = regl<Record<string, unknown>, Record<string, unknown>, DiscProps>({
    vert: 'precision highp float;\nattribute vec2 a_pos;\nvoid main() { gl_Position = vec4(a_pos, 0.0, 1.0); }',
    frag: discFragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: {
      u_disc: (_: unknown, { f }: DiscProps) => [f.width / 2, f.height / 2, f.radius],
      u_color: regl.prop<DiscProps, 'color'>('color'),
    },
    depth: { enable: false },
    blend,
  });

  interface MeshProps { f: GlobeFrame; xRange: [number, number]; yRange: [number, number]; vertices: REGL.Buffer; elements: REGL.Elements; color: Rgba }
  const mesh = (primitive: REGL.PrimitiveType) => regl<Record<string, unknown>, Record<string, unknown>, MeshProps>({
    vert: vert(meshSource),
    frag: basemapFragment,
    primitive,
    attributes: { a_pos: { buffer: regl.prop<MeshProps, 'vertices'>('vertices'), normalized: true, type: 'uint16', size: 2 } },
    elements: regl.prop<MeshProps, 'elements'>('elements'),
    uniforms: { ...projectionUniforms, u_xRange: regl.prop<MeshProps, 'xRange'>('xRange'), u_yRange: regl.prop<MeshProps, 'yRange'>('yRange'), u_color: regl.prop<MeshProps, 'color'>('color') },
    depth: { enable: false },
    blend,
  });
  const triangles = mesh('triangles');
  const lineMesh = mesh('lines');

  interface LinesProps { f: GlobeFrame; buffer: REGL.Buffer; count: number; color: Rgba }
  const lonLatLines = regl<Record<string, unknown>, Record<string, unknown>, LinesProps>({
    vert: vert(lonLatSource),
    frag: basemapFragment,
    primitive: 'lines',
    attributes: { a_pos: regl.prop<LinesProps, 'buffer'>('buffer') },
    count: regl.prop<LinesProps, 'count'>('count'),
    uniforms: { ...projectionUniforms, u_color: regl.prop<LinesProps, 'color'>('color') },
    depth: { enable: false },
    blend,
  });

  interface ParticleProps { f: GlobeFrame; s: ParticleStyle }
  const particleUniforms = {
    ...projectionUniforms,
    u_centerLat: (_: unknown, { f }: ParticleProps) => f.view.lat,
    u_radius: (_: unknown, { f }: ParticleProps) => f.radius,
    u_canvas: (_: unknown, { f }: ParticleProps) => [f.width, f.height],
    u_width: (_: unknown, { s }: ParticleProps) => s.width,
    u_alpha: (_: unknown, { s }: ParticleProps) => s.alpha,
  };
  const particles = instanced
    ? regl<Record<string, unknown>, Record<string, unknown>, ParticleProps>({
      vert: vert(particlesSource),
      frag: particleFragment,
      attributes: {
        a_corner: { buffer: corners, size: 2 },
        a_from: { buffer: particleBuffer, size: 2, stride: 16, offset: 0, divisor: 1 },
        a_to: { buffer: particleBuffer, size: 2, stride: 16, offset: 8, divisor: 1 },
      },
      count: 6,
      instances: () => particleCount,
      uniforms: particleUniforms,
      depth: { enable: false },
      blend,
    })
    : regl<Record<string, unknown>, Record<string, unknown>, ParticleProps>({
      vert: vert(linesSource),
      frag: particleFragment,
      primitive: 'lines',
      attributes: { a_pos: { buffer: particleBuffer, size: 2, stride: 8, offset: 0 } },
      count: () => particleCount * 2,
      uniforms: particleUniforms,
      depth: { enable: false },
      blend,
    });

  return {
    drawDisc(f) {
      disc({ f, color: GLOBE_COLORS.sea });
    },
    drawFill(f, meshes) {
      if (meshes) triangles({ f, xRange: meshes.xRange, yRange: meshes.yRange, vertices: meshes.land.vertices, elements: meshes.land.indices, color: GLOBE_COLORS.land });
    },
    drawLines(f, meshes, step) {
      if (step !== null) {
        if (!graticule || graticule.step !== step) {
          const lines = globeGraticule(step);
          graticule?.buffer.destroy();
          graticule = { step, buffer: regl.buffer(lines), count: lines.length / 2 };
        }
        lonLatLines({ f, buffer: graticule.buffer, count: graticule.count, color: GLOBE_COLORS.graticule });
      }
      if (!meshes) return;
      lineMesh({ f, xRange: meshes.xRange, yRange: meshes.yRange, vertices: meshes.borders.vertices, elements: meshes.borders.indices, color: GLOBE_COLORS.borders });
      lineMesh({ f, xRange: meshes.xRange, yRange: meshes.yRange, vertices: meshes.coast.vertices, elements: meshes.coast.indices, color: GLOBE_COLORS.coast });
    },
    uploadParticles(vertices, count) {
      particleCount = count;
      particleBuffer({ data: vertices.subarray(0, count * 4), usage: 'stream' });
    },
    drawParticles(f, s) {
      if (particleCount > 0) particles({ f, s });
    },
    destroy() {
      fullscreen.destroy();
      particleBuffer.destroy();
      corners.destroy();
      graticule?.buffer.destroy();
      graticule = null;
    },
  };
}
