/**
 * A trailing debounce for changes that come in bursts (a pan changes the map's position every
 * frame): `run` goes once `ms` after the last poke. A burst keeps one timer, moved on to the time
 * left when it fires, rather than a clearTimeout and a setTimeout per change — each costs a slow
 * phone's main thread a little, in every frame of a pan.
 */
export interface Trailing {
  poke(): void;
  cancel(): void;
}

export function trailing(run: () => void, ms: number, now: () => number = () => performance.now()): Trailing {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    const left = last + ms - now();
    if (left > 0) {
      timer = setTimeout(fire, left);
      return;
    }
    timer = null;
    run();
  };
  return {
    poke() {
      last = now();
      timer ??= setTimeout(fire, ms);
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
