/**
 * The frame on the canvas. The static layer (basemap fill, weather raster, basemap lines) lives in
 * its own framebuffer, redrawn only when the view, the time or the data change. The canvas keeps
 * its content between frames (preserveDrawingBuffer) and is the particle trail itself: each frame
 * the static layer is blended over it so trails fade, then the new particle segments are drawn.
 * That is one full-screen pass per frame, which is what a fill-bound software renderer can afford.
 * A pan first moves the last frame by the pan, so trails stay where they were on the ground.
 *
 * Pictures of the static layer are kept for the times already drawn (`remember` / `recall`), so
 * that stepping through a loop already shown (radar, satellite: the renderer's choice) draws
 * no basemap or raster pass again: on a software renderer those passes cost ~190 ms at 1280x720
 * against ~30 ms for showing a kept one (bench/radarAnimation.ts: 4.2 against 26.1 steps/s). The renderer keys them by time and forgets them all when
 * anything else the static layer shows changes. They take at most STATIC_FRAMES_MAX_BYTES; when
 * that is full, new pictures are not kept (an animation longer than the budget still finds the
 * first ones, where dropping the oldest would find none).
 */

import type REGL from 'regl';
import vertex from './fullscreen.vertex.glsl?raw';
import blitFragment from './blit.fragment.glsl?raw';
import fadeFragment from './fade.fragment.glsl?raw';

/**
 * GPU memory for kept pictures of the static layer (3.5 MiB each at 1280x720): 18 at 1280x720, 8
 * at 1920x1080, 4 at 2560x1440. More would hold longer loops on large screens, at a cost a phone's
 * shared memory should not pay.
 */
export const STATIC_FRAMES_MAX_BYTES = 64 * 1024 * 1024;

export interface CompositeLayer {
  /** Where the static layer is drawn; `drawing()` makes it the one shown again. */
  readonly staticTarget: REGL.Framebuffer2D;
  resize(width: number, height: number): void;
  /** The static layer about to be drawn into staticTarget: that is the one shown. */
  drawing(): void;
  /** Keeps a copy of staticTarget under `key` if the budget allows; whether it was kept. */
  remember(key: string): boolean;
  /** Shows the picture kept under `key` as the static layer; false when there is none. */
  recall(key: string): boolean;
  /** Drops every kept picture. */
  forget(): void;
  /** Pictures kept and their bytes. */
  kept(): { count: number; bytes: number };
  /** The static layer onto the canvas: trails are gone. */
  reset(): void;
  /** Moves the canvas content by `shift` device pixels (x right, y down). */
  shift(shift: [number, number]): void;
  /** Fades the trails toward the static layer, keeping `fade` of them. */
  fade(fade: number): void;
  destroy(): void;
}

export function createCompositeLayer(regl: REGL.Regl, width: number, height: number): CompositeLayer {
  const fullscreen = regl.buffer([-1, -1, 3, -1, -1, 3]);
  const texture = (w: number, h: number) => regl.texture({ width: w, height: h, min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' });
  const staticTarget = regl.framebuffer({ color: texture(width, height), depthStencil: false });
  // Scratch copy of the canvas for the pan shift. RGB: the canvas has no alpha channel, and
  // copyTexImage2D refuses a format with components the framebuffer lacks.
  const copy = regl.texture({ width, height, format: 'rgb', min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' });
  let size: [number, number] = [width, height];
  let frame = 0;
  /** The static layer shown: staticTarget, or a kept picture. */
  let shown: REGL.Framebuffer2D | REGL.Texture2D = staticTarget;
  const keptFrames = new Map<string, REGL.Texture2D>();
  let keptBytes = 0;
  const forget = () => {
    for (const texture of keptFrames.values()) texture.destroy();
    keptFrames.clear();
    keptBytes = 0;
    shown = staticTarget;
  };

  interface BlitProps { source: REGL.Texture2D | REGL.Framebuffer2D; shift: [number, number] }
  const blit = regl<Record<string, unknown>, Record<string, unknown>, BlitProps>({
    vert: vertex,
    frag: blitFragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: { u_source: regl.prop<BlitProps, 'source'>('source'), u_shift: regl.prop<BlitProps, 'shift'>('shift') },
    depth: { enable: false },
  });

  interface FadeProps { alpha: number; frame: number }
  const fadeOver = regl<Record<string, unknown>, Record<string, unknown>, FadeProps>({
    vert: vertex,
    frag: fadeFragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: { u_static: () => shown, u_alpha: regl.prop<FadeProps, 'alpha'>('alpha'), u_frame: regl.prop<FadeProps, 'frame'>('frame') },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'src alpha', dst: 'one minus src alpha' } },
  });

  return {
    staticTarget,
    resize(w, h) {
      forget();
      size = [w, h];
      staticTarget.resize(w, h);
      copy.resize(w, h);
    },
    drawing() {
      shown = staticTarget;
    },
    remember(key) {
      const bytes = size[0] * size[1] * 4;
      if (keptFrames.has(key) || keptBytes + bytes > STATIC_FRAMES_MAX_BYTES) return false;
      const texture = regl.texture({ width: size[0], height: size[1], min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' });
      regl({ framebuffer: staticTarget })(() => {
        texture({ copy: true, width: size[0], height: size[1], min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' });
      });
      keptFrames.set(key, texture);
      keptBytes += bytes;
      return true;
    },
    recall(key) {
      const texture = keptFrames.get(key);
      if (!texture) return false;
      shown = texture;
      return true;
    },
    forget,
    kept() {
      return { count: keptFrames.size, bytes: keptBytes };
    },
    reset() {
      // The dither starts over with the trails: the same frames after a reset give the same pixels.
      frame = 0;
      blit({ source: shown, shift: [0, 0] });
    },
    shift([dx, dy]) {
      // Uncovered edges show the static layer; the rest is the last frame, moved.
      copy({ copy: true, width: size[0], height: size[1], format: 'rgb', min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' });
      blit({ source: shown, shift: [0, 0] });
      // Framebuffer rows run upwards, screen y downwards.
      regl({ scissor: { enable: true, box: shiftedBox(size, dx, dy) } })(() => blit({ source: copy, shift: [dx / size[0], -dy / size[1]] }));
    },
    fade(fade) {
      frame = (frame + 1) % 1024;
      fadeOver({ alpha: Math.max(1 / 255, 1 - fade), frame });
    },
    destroy() {
      forget();
      fullscreen.destroy();
      staticTarget.destroy();
      copy.destroy();
    },
  };
}

/** Where the moved frame still covers the canvas, in framebuffer coordinates (y up). */
function shiftedBox([w, h]: [number, number], dx: number, dy: number): { x: number; y: number; width: number; height: number } {
  const x = Math.max(0, Math.round(dx));
  const width = Math.max(0, w - Math.abs(Math.round(dx)));
  const y = Math.max(0, Math.round(-dy));
  const height = Math.max(0, h - Math.abs(Math.round(dy)));
  return { x, y, width, height };
}
