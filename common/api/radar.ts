/**
 * The radar composite's documents (SPEC §7 radar hosts), served by server/obs/core/routes.ts under
 * /obs/v1.0/radar/ as server/obs/radar/publish.ts writes them (types: common/radar.ts):
 *
 *   minifest2.json           RADAR_MINIFEST_ANSWER: frames of the live window, nowcast, sources
 *   archive/minifest2.json   RADAR_MINIFEST_ANSWER: older frames (Premium; free callers get none)
 *   coverage.json            RADAR_COVERAGE_ANSWER: each provider's coverage outline
 */

import { obsFilePath } from './obs.ts';
import type { Infer } from './schema.ts';

export const RADAR_MINIFEST_PATH = obsFilePath('radar', 'minifest2.json');
export const RADAR_ARCHIVE_MINIFEST_PATH = obsFilePath('radar', 'archive/minifest2.json');
export const RADAR_COVERAGE_PATH = obsFilePath('radar', 'coverage.json');

const FRAME = {
  type: 'object',
  required: ['time', 'id', 'sources', 'tiles'],
  properties: {
    time: { type: 'number' },
    id: { type: 'string' },
    sources: { type: 'array', items: { type: 'string' } },
    tiles: { type: 'array', items: { type: 'string' } },
    leadMinutes: { type: 'number' },
  },
} as const;

export const RADAR_MINIFEST_ANSWER = {
  type: 'object',
  required: ['version', 'updated', 'minZoom', 'maxZoom', 'quantization', 'frames', 'nowcast', 'sources'],
  properties: {
    version: { type: 'number', enum: [2] },
    updated: { type: 'number' },
    minZoom: { type: 'number' },
    maxZoom: { type: 'number' },
    quantization: {
      type: 'object', required: ['offset', 'scale', 'unit'],
      properties: { offset: { type: 'number' }, scale: { type: 'number' }, unit: { type: 'string', enum: ['dBZ'] } },
    },
    frames: { type: 'array', items: FRAME },
    nowcast: { type: 'array', items: FRAME },
    sources: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'label', 'attribution', 'latest'],
        properties: { id: { type: 'string' }, label: { type: 'string' }, attribution: { type: 'string' }, latest: { type: ['number', 'null'] } },
      },
    },
  },
} as const;
export type RadarMinifestAnswer = Infer<typeof RADAR_MINIFEST_ANSWER>;

export const RADAR_COVERAGE_ANSWER = {
  type: 'object',
  required: ['sources'],
  properties: {
    sources: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'rings'],
        properties: { id: { type: 'string' }, rings: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'number' } } } } },
      },
    },
  },
} as const;
export type RadarCoverageAnswer = Infer<typeof RADAR_COVERAGE_ANSWER>;
