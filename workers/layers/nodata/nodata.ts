/**
 * The grey "No data!" tile (SPEC §4 "Data tile"): drawn where a tile failed to load or decode.
 * Its texture is painted once with a 2D OffscreenCanvas.
 */

import type REGL from 'regl';
import vertex from '../raster/raster.vertex.glsl?raw';
import fragment from './nodata.fragment.glsl?raw';
import type { Vec4 } from '../raster/raster.ts';

const SIZE = 256;

export interface NoDataLayer {
  draw(rects: Vec4[], pixelRatio: number): void;
  destroy(): void;
}

/** Premultiplied RGBA of the label tile. */
function paintLabel(text: string): Uint8Array {
  if (typeof OffscreenCanvas === 'undefined') return new Uint8Array(SIZE * SIZE * 4).fill(128);
  const canvas = new OffscreenCanvas(SIZE, SIZE);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = 'rgba(110, 110, 110, 0.85)';
  ctx.fillRect(0, 0, SIZE, SIZE);
  // Framebuffer rows run upwards: draw the text upside down so it reads upright on screen.
  ctx.translate(0, SIZE);
  ctx.scale(1, -1);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.font = 'bold 22px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, SIZE / 2, SIZE / 2);
  const pixels = new Uint8Array(ctx.getImageData(0, 0, SIZE, SIZE).data.buffer);
  for (let i = 0; i < pixels.length; i += 4) {
    const a = pixels[i + 3] / 255;
    pixels[i] = Math.round(pixels[i] * a);
    pixels[i + 1] = Math.round(pixels[i + 1] * a);
    pixels[i + 2] = Math.round(pixels[i + 2] * a);
  }
  return pixels;
}

export function createNoDataLayer(regl: REGL.Regl, label = 'No data!'): NoDataLayer {
  const quad = regl.buffer([0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1]);
  const texture = regl.texture({ data: paintLabel(label), width: SIZE, height: SIZE, min: 'linear', mag: 'linear', wrapS: 'repeat', wrapT: 'repeat' });
  interface Props { rect: Vec4; cell: number }
  const draw = regl<Record<string, unknown>, Record<string, unknown>, Props>({
    vert: vertex,
    frag: fragment,
    attributes: { a_corner: { buffer: quad, size: 2 } },
    count: 6,
    uniforms: { u_rect: regl.prop<Props, 'rect'>('rect'), u_cell: regl.prop<Props, 'cell'>('cell'), u_label: texture },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'one', dst: 'one minus src alpha' } },
  });
  return {
    draw(rects, pixelRatio) {
      if (rects.length) draw(rects.map((rect) => ({ rect, cell: SIZE * pixelRatio })));
    },
    destroy() {
      quad.destroy();
      texture.destroy();
    },
  };
}
