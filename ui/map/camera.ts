/**
 * Camera input on the main thread: drag, wheel and pinch zoom with inertia (SPEC §2 "Map": zoom 3
 * to 16, wraps horizontally). It only moves the map model; the worker follows the model every frame.
 * Handlers do constant work per event so the main thread stays free.
 */

import { latFromMercY, lonFromMercX, mercX, mercY, worldSize } from '../../common/map.ts';
import { rotateGlobe, zoomGlobeAbout } from '../../common/globe.ts';
import type { MapModel } from '../state/mapModel.ts';

/** Movement under which a press counts as a click, CSS pixels, and the longest click. */
const CLICK_SLOP_PX = 5;
const CLICK_MAX_MS = 500;
/** Velocity is measured over the last part of a drag. */
const VELOCITY_WINDOW_MS = 100;
/** Inertia: speed decays as exp(-t / tau); stops under the minimum speed. */
const INERTIA_TAU_MS = 325;
const INERTIA_MIN_SPEED = 0.02; // px/ms
const INERTIA_MAX_SPEED = 4; // px/ms
/** Wheel: zoom levels per pixel of wheel delta, and how fast the zoom eases to its target. */
const WHEEL_ZOOM_PER_PX = 1 / 300;
const ZOOM_EASE_PER_MS = 0.012;

interface Sample {
  t: number;
  x: number;
  y: number;
}

export interface CameraOptions {
  onClick?: (x: number, y: number) => void;
  now?: () => number;
  requestFrame?: (cb: (t: number) => void) => number;
  cancelFrame?: (id: number) => void;
}

export class Camera {
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private samples: Sample[] = [];
  private pressAt: Sample | null = null;
  private moved = 0;
  private pinchDistance = 0;
  private inertiaFrame = 0;
  private zoomFrame = 0;
  private zoomTarget: number | null = null;
  private zoomAnchor: { x: number; y: number } | null = null;
  private readonly now: () => number;
  private readonly requestFrame: (cb: (t: number) => void) => number;
  private readonly cancelFrame: (id: number) => void;

  constructor(private readonly element: HTMLElement, private readonly map: MapModel, private readonly options: CameraOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.requestFrame = options.requestFrame ?? ((cb) => requestAnimationFrame(cb));
    this.cancelFrame = options.cancelFrame ?? ((id) => cancelAnimationFrame(id));
    element.addEventListener('pointerdown', this.onPointerDown);
    element.addEventListener('pointermove', this.onPointerMove);
    element.addEventListener('pointerup', this.onPointerUp);
    element.addEventListener('pointercancel', this.onPointerUp);
    element.addEventListener('wheel', this.onWheel, { passive: false });
    element.style.touchAction = 'none';
  }

  dispose(): void {
    this.element.removeEventListener('pointerdown', this.onPointerDown);
    this.element.removeEventListener('pointermove', this.onPointerMove);
    this.element.removeEventListener('pointerup', this.onPointerUp);
    this.element.removeEventListener('pointercancel', this.onPointerUp);
    this.element.removeEventListener('wheel', this.onWheel);
    this.stopInertia();
    this.stopZoom();
  }

  /** Pans by a screen offset in CSS pixels (the content follows the pointer). */
  panBy(dx: number, dy: number): void {
    const view = this.map.view.value;
    if (view.globe) {
      // The globe turns under the pointer (with the same inertia after a fling).
      const { lon, lat } = rotateGlobe(view, dx, dy);
      this.map.moveTo({ lon, lat });
      return;
    }
    const { lon, lat, zoom } = view;
    const size = worldSize(zoom);
    this.map.moveTo({ lon: lonFromMercX(mercX(lon) - dx / size), lat: latFromMercY(mercY(lat) - dy / size) });
  }

  /** Sets the zoom keeping the point under (x, y) (CSS px from the top-left) in place. */
  zoomAround(zoom: number, x: number, y: number): void {
    const v = this.map.view.value;
    const z = this.map.clampZoom(zoom);
    if (v.globe) {
      // The point of the globe under the pointer stays under it.
      const { lon, lat, zoom: globeZoom } = zoomGlobeAbout(v, z, x, y);
      this.map.moveTo({ lon, lat, zoom: globeZoom });
      return;
    }
    const before = worldSize(v.zoom);
    const after = worldSize(z);
    const ox = x - v.width / 2;
    const oy = y - v.height / 2;
    const ax = mercX(v.lon) + ox / before;
    const ay = mercY(v.lat) + oy / before;
    this.map.moveTo({ zoom: z, lon: lonFromMercX(ax - ox / after), lat: latFromMercY(ay - oy / after) });
  }

  /** Eases the zoom by `delta` levels around a point (keys + and -, wheel). */
  zoomBy(delta: number, x?: number, y?: number): void {
    const v = this.map.view.value;
    this.zoomTarget = this.map.clampZoom((this.zoomTarget ?? v.zoom) + delta);
    this.zoomAnchor = { x: x ?? v.width / 2, y: y ?? v.height / 2 };
    if (!this.zoomFrame) {
      let last = this.now();
      const tick = () => {
        const t = this.now();
        const dt = Math.min(64, t - last);
        last = t;
        const current = this.map.view.value.zoom;
        const target = this.zoomTarget!;
        const k = 1 - Math.exp(-ZOOM_EASE_PER_MS * dt);
        const next = Math.abs(target - current) < 0.002 ? target : current + (target - current) * k;
        this.zoomAround(next, this.zoomAnchor!.x, this.zoomAnchor!.y);
        if (next === target) {
          this.zoomFrame = 0;
          this.zoomTarget = null;
        } else {
          this.zoomFrame = this.requestFrame(tick);
        }
      };
      this.zoomFrame = this.requestFrame(tick);
    }
  }

  private stopZoom(): void {
    if (this.zoomFrame) this.cancelFrame(this.zoomFrame);
    this.zoomFrame = 0;
    this.zoomTarget = null;
  }

  private stopInertia(): void {
    if (this.inertiaFrame) this.cancelFrame(this.inertiaFrame);
    this.inertiaFrame = 0;
  }

  private local(e: PointerEvent | WheelEvent): { x: number; y: number } {
    const r = this.element.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private readonly onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    this.stopInertia();
    try {
      this.element.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks (or a synthetic one) cannot be captured: fine.
    }
    const p = this.local(e);
    this.pointers.set(e.pointerId, p);
    if (this.pointers.size === 1) {
      const t = this.eventTime(e);
      this.pressAt = { t, ...p };
      this.moved = 0;
      this.samples = [{ t, ...p }];
    } else if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinchDistance = Math.hypot(a.x - b.x, a.y - b.y);
      this.pressAt = null;
    }
  };

  private readonly onPointerMove = (e: PointerEvent) => {
    const previous = this.pointers.get(e.pointerId);
    if (!previous) return;
    const p = this.local(e);
    if (this.pointers.size === 1) {
      const dx = p.x - previous.x;
      const dy = p.y - previous.y;
      this.moved += Math.abs(dx) + Math.abs(dy);
      this.pointers.set(e.pointerId, p);
      if (this.moved > CLICK_SLOP_PX || !this.pressAt) this.panBy(dx, dy);
      const t = this.eventTime(e);
      this.samples.push({ t, ...p });
      while (this.samples.length > 2 && t - this.samples[0].t > VELOCITY_WINDOW_MS) this.samples.shift();
    } else if (this.pointers.size === 2) {
      const [a0, b0] = [...this.pointers.values()];
      const mid0 = { x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2 };
      this.pointers.set(e.pointerId, p);
      const [a, b] = [...this.pointers.values()];
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (this.pinchDistance > 0 && distance > 0) {
        const v = this.map.view.value;
        this.zoomAround(v.zoom + Math.log2(distance / this.pinchDistance), mid.x, mid.y);
      }
      this.pinchDistance = distance;
      this.panBy(mid.x - mid0.x, mid.y - mid0.y);
      this.moved += CLICK_SLOP_PX + 1;
      this.samples = [];
    }
  };

  private readonly onPointerUp = (e: PointerEvent) => {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 1) {
      // Pinch ended with one finger down: it continues as a drag from where it is.
      this.pinchDistance = 0;
      this.samples = [];
      return;
    }
    if (this.pointers.size > 0) return;
    const press = this.pressAt;
    this.pressAt = null;
    const released = this.eventTime(e);
    if (e.type === 'pointerup' && press && this.moved <= CLICK_SLOP_PX && released - press.t <= CLICK_MAX_MS) {
      this.options.onClick?.(press.x, press.y);
      return;
    }
    this.startInertia(released);
  };

  /**
   * When the input happened: the event's own time stamp (the finger lifted then, even when a busy
   * main thread handles it later), or the injected clock of the tests.
   */
  private eventTime(e: Event): number {
    return this.options.now === undefined && e.timeStamp > 0 ? e.timeStamp : this.now();
  }

  private startInertia(released: number): void {
    const s = this.samples;
    if (s.length < 2) return;
    const first = s[0];
    const last = s[s.length - 1];
    const dt = last.t - first.t;
    if (dt <= 0 || released - last.t > VELOCITY_WINDOW_MS) return;
    let vx = (last.x - first.x) / dt;
    let vy = (last.y - first.y) / dt;
    const speed = Math.hypot(vx, vy);
    if (speed < INERTIA_MIN_SPEED) return;
    if (speed > INERTIA_MAX_SPEED) {
      vx *= INERTIA_MAX_SPEED / speed;
      vy *= INERTIA_MAX_SPEED / speed;
    }
    let prev = this.now();
    const tick = () => {
      const t = this.now();
      const elapsed = Math.min(64, t - prev);
      prev = t;
      const decay = Math.exp(-elapsed / INERTIA_TAU_MS);
      this.panBy(vx * elapsed, vy * elapsed);
      vx *= decay;
      vy *= decay;
      this.inertiaFrame = Math.hypot(vx, vy) < INERTIA_MIN_SPEED ? 0 : this.requestFrame(tick);
    };
    this.inertiaFrame = this.requestFrame(tick);
  }

  private readonly onWheel = (e: WheelEvent) => {
    e.preventDefault();
    this.stopInertia();
    // deltaMode 1 = lines (about 40 px each), 2 = pages.
    const px = e.deltaY * (e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1);
    const p = this.local(e);
    this.zoomBy(Math.max(-1, Math.min(1, -px * WHEEL_ZOOM_PER_PX)), p.x, p.y);
  };
}
