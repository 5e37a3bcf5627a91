/** The picker: the clicked point and the value under it (SPEC §2: opens on a desktop map click). */

import { signal, type ReadonlySignal } from '@preact/signals-core';
import { decodeLocationCode, type UrlState } from '../../common/url.ts';
import type { SampleResult } from '../../workers/api.ts';

/**
 * Where the address opens the picker (SPEC §2 "Shared URL search part"): d:picker opens it, at the
 * place of its m: location code, else at the centre of the map; null without d:picker.
 */
export function pickerFromUrl(url: UrlState, centre: { lat: number; lon: number }): { lat: number; lon: number } | null {
  if (!url.pickerOpen) return null;
  return (url.pickerCode ? decodeLocationCode(url.pickerCode) : null) ?? { lat: centre.lat, lon: centre.lon };
}

export interface PickerModel {
  readonly position: ReadonlySignal<{ lat: number; lon: number } | null>;
  readonly result: ReadonlySignal<SampleResult | null>;
  open(lat: number, lon: number): void;
  setResult(result: SampleResult | null): void;
  close(): void;
}

export function createPickerModel(initial: { lat: number; lon: number } | null = null): PickerModel {
  const position = signal<{ lat: number; lon: number } | null>(initial);
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
