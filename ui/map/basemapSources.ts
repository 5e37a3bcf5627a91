/**
 * The tile base maps this server is configured with (GET /metadata/v1.0/basemaps.json,
 * common/api/basemaps.ts), asked once per page: the render worker draws them and the map
 * selector lists them. Until the answer is in (or if it fails) none is configured.
 */

import { signal } from '@preact/signals-core';
import { BASEMAPS_ANSWER, BASEMAPS_PATH, type BasemapsAnswer } from '../../common/api/basemaps.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';

export const basemapSources = signal<BasemapsAnswer['sources']>({});

let asked: Promise<void> | null = null;

export function loadBasemapSources(): Promise<void> {
  asked ??= fetchAnswer(BASEMAPS_ANSWER, BASEMAPS_PATH).then(
    (answer) => {
      basemapSources.value = answer.sources;
    },
    (error: unknown) => console.warn(`Base maps: ${(error as Error).message}`),
  );
  return asked;
}
