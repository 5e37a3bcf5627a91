/**
 * The static layer (basemap fill, weather raster, basemap lines) lives in its own framebuffer,
 * redrawn only when the view, the time or the data change; every frame composites it with the
 * particle trails onto the canvas in one pass.
 */

import type REGL from 'regl';
import vertex from './fullscreen.vertex.glsl?raw';
import fragment from './composite.fragment.glsl?raw';

export interface CompositeLayer {
  readonly staticTarget: REGL.Framebuffer2D;
  resize(width: number, height: number): void;
  draw(trail: REGL.Framebuffer2D | null): void;
  destroy(): void;
}

export function createCompositeLayer(regl: REGL.Regl, width: number, height: number): CompositeLayer {
  const fullscreen = regl.buffer([-1, -1, 3, -1, -1, 3]);
  const staticTarget = regl.framebuffer({
    color: regl.texture({ width, height, min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' }),
    depthStencil: false,
  });
  // Stands in for the trail when particles are off: fully transparent.
  const empty = regl.framebuffer({ width: 1, height: 1, depthStencil: false });
  regl.clear({ color: [0, 0, 0, 0], framebuffer: empty });

  interface Props { trail: REGL.Framebuffer2D }
  const draw = regl<Record<string, unknown>, Record<string, unknown>, Props>({
    vert: vertex,
    frag: fragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: {
      u_static: staticTarget,
      u_trail: regl.prop<Props, 'trail'>('trail'),
      u_particleColor: [1, 1, 1],
    },
    depth: { enable: false },
  });

  return {
    staticTarget,
    resize(w, h) {
      staticTarget.resize(w, h);
    },
    draw(trail) {
      draw({ trail: trail ?? empty });
    },
    destroy() {
      fullscreen.destroy();
      staticTarget.destroy();
      empty.destroy();
    },
  };
}
