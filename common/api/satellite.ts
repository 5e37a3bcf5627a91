/**
 * The satellite imagery's documents (SPEC §7 satellite hosts), served by server/obs/core/routes.ts
 * under /obs/v1.0/satellite/ as server/obs/satellite/publish.ts writes them (types: common/satellite.ts):
 *
 *   info.json           SATELLITE_INFO_ANSWER: frames of the live window, channels, sources
 *   archive/info.json   SATELLITE_INFO_ANSWER: older frames (Premium; free callers get none)
 *   frames/{id}/{z}/{x}/{y}.tile   data tiles of two channels (common/satellite.ts SATELLITE_CHANNELS)
 */

import { obsFilePath } from './obs.ts';
import type { Infer } from './schema.ts';

export const SATELLITE_INFO_PATH = obsFilePath('satellite', 'info.json');
export const SATELLITE_ARCHIVE_INFO_PATH = obsFilePath('satellite', 'archive/info.json');

const BOUNDS = {
  type: 'object', required: ['west', 'south', 'east', 'north'],
  properties: { west: { type: 'number' }, south: { type: 'number' }, east: { type: 'number' }, north: { type: 'number' } },
} as const;

export const SATELLITE_INFO_ANSWER = {
  type: 'object',
  required: ['version', 'updated', 'minZoom', 'maxZoom', 'channels', 'frames', 'sources'],
  properties: {
    version: { type: 'number', enum: [1] },
    updated: { type: 'number' },
    minZoom: { type: 'number' },
    maxZoom: { type: 'number' },
    channels: {
      type: 'array',
      items: {
        type: 'object', required: ['name', 'unit', 'offset', 'scale'],
        properties: { name: { type: 'string' }, unit: { type: 'string' }, offset: { type: 'number' }, scale: { type: 'number' } },
      },
    },
    frames: {
      type: 'array',
      items: {
        type: 'object', required: ['time', 'id', 'source', 'tiles', 'bounds'],
        properties: { time: { type: 'number' }, id: { type: 'string' }, source: { type: 'string' }, tiles: { type: 'array', items: { type: 'string' } }, bounds: BOUNDS },
      },
    },
    sources: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'label', 'attribution', 'lon0', 'latest'],
        properties: { id: { type: 'string' }, label: { type: 'string' }, attribution: { type: 'string' }, lon0: { type: 'number' }, latest: { type: ['number', 'null'] } },
      },
    },
  },
} as const;
export type SatelliteInfoAnswer = Infer<typeof SATELLITE_INFO_ANSWER>;
