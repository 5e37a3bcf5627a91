/**
 * The first checks of the page, before the map starts (main.ts). Small on purpose: it is part of
 * the start-up bundle, and what reacts to its findings loads lazily.
 *
 *  - a foreign frame (SPEC §2 "A page embedded in a foreign frame ... shows an 'unlegal embed'
 *    notice and stops"): framed by a page of another origin;
 *  - the browser's support (SPEC §5: "Missing ResizeObserver or IndexedDB shows a browser support
 *    error"): what is missing is recorded for the message; a missing ResizeObserver gets a
 *    window-resize stand-in so the map still follows the window;
 *  - errors before the error reporter loads (SPEC §4 phase 1_loading) are kept for it.
 */

export interface BootGuards {
  /** Framed by a page of another origin. */
  foreignEmbed: boolean;
  /** Inside any frame (error reports are skipped there, SPEC §8). */
  inFrame: boolean;
  /** Technologies of SPEC §5 this browser lacks. */
  missing: string[];
  /** Errors and rejections seen before the reporter took over; takeEarlyErrors() empties it. */
  takeEarlyErrors(): Event[];
}

type FrameWindow = Pick<Window, 'top' | 'self' | 'location'> & { document?: { referrer: string } };

/** Whether the page is framed by a page of another origin (SPEC §2). */
export function isForeignEmbed(win: FrameWindow): boolean {
  if (win.top === win.self) return false;
  const own = win.location.origin;
  // Chromium and Safari name every ancestor's origin.
  const ancestors = (win.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0) return Array.from({ length: ancestors.length }, (_, i) => ancestors.item(i)).some((o) => o !== own);
  try {
    // Readable only when the top page is of our origin.
    return win.top?.location.origin !== own;
  } catch {
    const referrer = win.document?.referrer ?? '';
    try {
      return !referrer || new URL(referrer).origin !== own;
    } catch {
      return true;
    }
  }
}

/** SPEC §5 technologies this window lacks. */
export function missingTechnologies(win: object): string[] {
  const missing: string[] = [];
  if (!('ResizeObserver' in win) || !(win as { ResizeObserver?: unknown }).ResizeObserver) missing.push('ResizeObserver');
  if (!('indexedDB' in win) || !(win as { indexedDB?: unknown }).indexedDB) missing.push('IndexedDB');
  return missing;
}

/** Calls back on window resizes: enough for the full-window map when ResizeObserver is missing. */
class WindowResizeObserver {
  private readonly listener: () => void;
  constructor(callback: (entries: unknown[], observer: unknown) => void) {
    this.listener = () => callback([], this);
  }
  observe() {
    window.addEventListener('resize', this.listener);
  }
  unobserve() {
    window.removeEventListener('resize', this.listener);
  }
  disconnect() {
    window.removeEventListener('resize', this.listener);
  }
}

let started: BootGuards | null = null;

/** The guards of this page: started by main.ts at boot, the same object for every later caller. */
export function bootGuards(): BootGuards {
  started ??= startBootGuards();
  return started;
}

function startBootGuards(win: Window = window): BootGuards {
  const missing = missingTechnologies(win);
  if (missing.includes('ResizeObserver')) (win as unknown as { ResizeObserver: unknown }).ResizeObserver = WindowResizeObserver;
  let early: Event[] | null = [];
  const keep = (event: Event) => {
    if (early && early.length < 50) early.push(event);
  };
  win.addEventListener('error', keep);
  win.addEventListener('unhandledrejection', keep);
  return {
    foreignEmbed: isForeignEmbed(win),
    inFrame: win.top !== win.self,
    missing,
    takeEarlyErrors() {
      win.removeEventListener('error', keep);
      win.removeEventListener('unhandledrejection', keep);
      const taken = early ?? [];
      early = null;
      return taken;
    },
  };
}
