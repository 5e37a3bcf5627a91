/**
 * Panes and panels (SPEC §2 "Panels and panes", §4 "Window lifecycle" and "Plugin"): which
 * windows are open, in which pane, in which phase of their lifecycle, and the load state of each
 * lazily loaded panel (its code and its language bundle).
 *
 *   plugin states   notLoaded -> loading -> loaded -> open -> closed (-> open ...) ; unmounted
 *   window phases   opening (in the DOM, 50 ms before the open class) -> open -> closing
 *                   (500 ms before removal)
 *
 * Rules: opening a panel closes the open panels of the same pane family; in the right pane,
 * radiosonde and sounding replace each other without animation; opening a right-pane or
 * full-screen panel closes the multimodel panel; closing while loading cancels the opening;
 * opening an open panel re-runs its open handler (its `openCount` rises); an unknown panel logs
 * "Attempt to open non existent plugin".
 */

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';

export type Pane = 'bottom' | 'small-bottom-bottom' | 'center' | 'rhpane' | 'fullscreen-mobile' | 'top';
export type PluginState = 'notLoaded' | 'loading' | 'loaded' | 'open' | 'closed' | 'unmounted';
export type WindowPhase = 'opening' | 'open' | 'closing';

/** SPEC §4: open class 50 ms after the window is in the DOM; removal 500 ms after closing starts. */
export const OPEN_CLASS_DELAY_MS = 50;
export const CLOSE_REMOVAL_MS = 500;

export interface PanelDef<C = unknown> {
  ident: string;
  /** The pane on desktop and tablet. */
  pane: Pane;
  /** The pane on mobile (default: the desktop one). */
  mobilePane?: Pane;
  /** Loads the panel's code (a dynamic import) — its component is the module's default export. */
  load: () => Promise<{ default: C }>;
  /** Loads what else it needs first (its language bundle). */
  prepare?: () => Promise<unknown>;
  /** Never closes by the pane rules (e.g. the picker). */
  neverCloses?: boolean;
  /** Closes itself this many ms after opening. */
  timeoutMs?: number;
  /** Closes on a click outside it. */
  closeOnOutsideClick?: boolean;
}

export interface OpenWindow {
  ident: string;
  pane: Pane;
  params: Readonly<Record<string, unknown>>;
  phase: WindowPhase;
  /** Rises each time the panel is asked to open while open: its open handler runs again. */
  openCount: number;
  /** No closing animation (right-pane replacements). */
  instant: boolean;
}

export interface PanelModel<C = unknown> {
  readonly windows: ReadonlySignal<readonly OpenWindow[]>;
  readonly states: ReadonlySignal<Readonly<Record<string, PluginState>>>;
  /** Loaded components by ident. */
  component(ident: string): C | undefined;
  isOpen(ident: string): boolean;
  /** Resolves true once open; false when cancelled, unknown or failed to load. */
  open(ident: string, params?: Record<string, unknown>): Promise<boolean>;
  close(ident: string, options?: { instant?: boolean }): void;
  closeAll(): void;
  /** Panels known to the registry. */
  has(ident: string): boolean;
  readonly anyOpen: ReadonlySignal<boolean>;
}

export interface PanelModelOptions<C> {
  registry: Readonly<Record<string, PanelDef<C>>>;
  mobile?: () => boolean;
  log?: (message: string, detail?: unknown) => void;
  /** Timers (tests pass fakes). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** Right-pane windows that replace each other without animation. */
const RH_REPLACING = ['radiosonde', 'sounding'];

export function createPanelModel<C>(options: PanelModelOptions<C>): PanelModel<C> {
  const { registry } = options;
  const log = options.log ?? ((message: string, detail?: unknown) => console.warn(message, detail ?? ''));
  const later = options.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const cancel = options.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const windows = signal<readonly OpenWindow[]>([]);
  const states = signal<Record<string, PluginState>>({});
  const components = new Map<string, C>();
  const loading = new Map<string, Promise<boolean>>();
  /** Openings cancelled by a close while loading. */
  const cancelled = new Set<string>();
  const timers = new Map<string, unknown[]>();

  const setState = (ident: string, state: PluginState) => {
    states.value = { ...states.value, [ident]: state };
  };
  const paneOf = (def: PanelDef<C>) => (options.mobile?.() ? def.mobilePane ?? def.pane : def.pane);
  const clearTimers = (ident: string) => {
    for (const h of timers.get(ident) ?? []) cancel(h);
    timers.delete(ident);
  };
  const addTimer = (ident: string, fn: () => void, ms: number) => {
    const list = timers.get(ident) ?? [];
    list.push(later(fn, ms));
    timers.set(ident, list);
  };

  const remove = (ident: string) => {
    clearTimers(ident);
    windows.value = windows.value.filter((w) => w.ident !== ident);
    setState(ident, 'closed');
  };

  const close = (ident: string, { instant = false } = {}) => {
    if (states.peek()[ident] === 'loading') {
      cancelled.add(ident);
      return;
    }
    const w = windows.peek().find((x) => x.ident === ident);
    if (!w || w.phase === 'closing') return;
    clearTimers(ident);
    if (instant) {
      remove(ident);
      return;
    }
    windows.value = windows.peek().map((x) => (x.ident === ident ? { ...x, phase: 'closing' as const } : x));
    addTimer(ident, () => remove(ident), CLOSE_REMOVAL_MS);
  };

  const show = (def: PanelDef<C>, params: Record<string, unknown>) => {
    const pane = paneOf(def);
    // Opened again while closing: the pending removal must not take the new window away.
    clearTimers(def.ident);
    batch(() => {
      for (const w of windows.peek()) {
        if (w.ident === def.ident || w.phase === 'closing') continue;
        const def2 = registry[w.ident];
        if (def2?.neverCloses) continue;
        const rhSwap = pane === 'rhpane' && RH_REPLACING.includes(def.ident) && RH_REPLACING.includes(w.ident);
        if (w.pane === pane) close(w.ident, { instant: rhSwap });
        else if (w.ident === 'multimodel' && (pane === 'rhpane' || pane === 'fullscreen-mobile')) close(w.ident);
      }
      const instant = pane === 'rhpane' && RH_REPLACING.includes(def.ident);
      windows.value = [...windows.peek().filter((w) => w.ident !== def.ident), { ident: def.ident, pane, params, phase: instant ? 'open' : 'opening', openCount: 1, instant }];
      setState(def.ident, 'open');
    });
    if (!windows.peek().find((w) => w.ident === def.ident)?.instant) {
      addTimer(def.ident, () => {
        windows.value = windows.peek().map((w) => (w.ident === def.ident && w.phase === 'opening' ? { ...w, phase: 'open' as const } : w));
      }, OPEN_CLASS_DELAY_MS);
    }
    if (def.timeoutMs) addTimer(def.ident, () => close(def.ident), def.timeoutMs);
  };

  const open = async (ident: string, params: Record<string, unknown> = {}): Promise<boolean> => {
    const def = Object.prototype.hasOwnProperty.call(registry, ident) ? registry[ident] : undefined;
    if (!def) {
      log('Attempt to open non existent plugin', ident);
      return false;
    }
    const current = windows.peek().find((w) => w.ident === ident);
    if (current && current.phase !== 'closing') {
      // Open again: its open handler re-runs with the new parameters.
      windows.value = windows.peek().map((w) => (w.ident === ident ? { ...w, params, openCount: w.openCount + 1 } : w));
      return true;
    }
    cancelled.delete(ident);
    if (!components.has(ident)) {
      let pending = loading.get(ident);
      if (!pending) {
        setState(ident, 'loading');
        pending = Promise.all([def.load(), def.prepare?.()]).then(([module]) => {
          components.set(ident, module.default);
          setState(ident, 'loaded');
          return true;
        }, (error: unknown) => {
          log(`Plugin ${ident} failed to load`, error);
          setState(ident, 'notLoaded');
          return false;
        }).finally(() => loading.delete(ident));
        loading.set(ident, pending);
      }
      if (!(await pending)) return false;
    }
    if (cancelled.has(ident)) {
      cancelled.delete(ident);
      setState(ident, 'closed');
      return false;
    }
    show(def, params);
    return true;
  };

  return {
    windows,
    states,
    component: (ident) => components.get(ident),
    isOpen: (ident) => windows.peek().some((w) => w.ident === ident && w.phase !== 'closing'),
    open,
    close,
    closeAll() {
      for (const w of windows.peek()) if (!registry[w.ident]?.neverCloses) close(w.ident);
      for (const ident of loading.keys()) cancelled.add(ident);
    },
    has: (ident) => Object.prototype.hasOwnProperty.call(registry, ident),
    anyOpen: computed(() => windows.value.some((w) => w.phase !== 'closing')),
  };
}
