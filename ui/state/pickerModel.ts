/** The picker: the clicked point and the value under it (SPEC §2: opens on a desktop map click). */

import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { SampleResult } from '../../workers/api.ts';

export interface PickerModel {
  readonly position: ReadonlySignal<{ lat: number; lon: number } | null>;
  readonly result: ReadonlySignal<SampleResult | null>;
  open(lat: number, lon: number): void;
  setResult(result: SampleResult | null): void;
  close(): void;
}

export function createPickerModel(): PickerModel {
  const position = signal<{ lat: number; lon: number } | null>(null);
  const result = signal<SampleResult | null>(null);
  return {
    position,
    result,
    open(lat, lon) {
      position.value = { lat, lon };
      result.value = null;
    },
    setResult(r) {
      result.value = r;
    },
    close() {
      position.value = null;
      result.value = null;
    },
  };
}
