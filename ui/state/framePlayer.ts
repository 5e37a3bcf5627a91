/**
 * What the observation overlays' timelines share (radarModel.ts, satelliteModel.ts): while the
 * overlay shows, read its published frames now, again each `refreshMs` and whenever `watch`'s
 * signals change; stop reading and playing when it goes. Playback loops over the frames, one each
 * `frameMs`; `setIndex` shows a frame, clamped to those listed.
 */

import { effect, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';

export interface FramePlayerOptions {
  active: ReadonlySignal<boolean>;
  /** The shown frame's index in the model's steps. */
  index: Signal<number>;
  /** How many frames there are now. */
  count(): number;
  /** Reads the frames (errors are the model's to show). */
  read(): Promise<void>;
  /** Reads the signals whose change asks for a new read (the history range, the token). */
  watch(): void;
  refreshMs: number;
  frameMs: number;
}

export interface FramePlayer {
  readonly playing: ReadonlySignal<boolean>;
  setIndex(i: number): void;
  play(): void;
  pause(): void;
  dispose(): void;
}

export function createFramePlayer(o: FramePlayerOptions): FramePlayer {
  const playing = signal(false);
  let timer: ReturnType<typeof setInterval> | null = null;
  let refresh: ReturnType<typeof setInterval> | null = null;
  const pause = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playing.value = false;
  };
  const stopReading = () => {
    if (refresh !== null) clearInterval(refresh);
    refresh = null;
  };
  const dispose = effect(() => {
    if (!o.active.value) {
      pause();
      stopReading();
      return;
    }
    o.watch();
    void o.read();
    if (refresh === null) refresh = setInterval(() => void o.read(), o.refreshMs);
  });
  return {
    playing,
    setIndex(i) {
      const n = o.count();
      if (n > 0) o.index.value = Math.max(0, Math.min(n - 1, Math.round(i)));
    },
    play() {
      if (timer !== null || o.count() < 2) return;
      playing.value = true;
      // After the last frame it starts again from the first.
      timer = setInterval(() => {
        const n = o.count();
        if (n < 2) return pause();
        o.index.value = (o.index.peek() + 1) % n;
      }, o.frameMs);
    },
    pause,
    dispose() {
      pause();
      stopReading();
      dispose();
    },
  };
}
