/**
 * Observation products (radar, satellite, lightning, storms, warnings, fires; SPEC §1, §7) — the
 * contract of server/obs/core/routes.ts:
 *
 *   GET /obs/v1.0/status.json              -> ObsStatusAnswer: the sources followed, with freshness
 *   GET /obs/v1.0/{kind}/{path...}         a published file of one family (its manifest, tiles,
 *                                          GeoJSON), as that family's contract describes
 */

import type { Infer } from './schema.ts';
import { OBS_KINDS } from '../obsKinds.ts';

export const OBS_STATUS_PATH = '/obs/v1.0/status.json';
export const OBS_FILE_ROUTE = '/obs/v1.0/:kind/*';

export function obsFilePath(kind: string, path: string): string {
  return `/obs/v1.0/${kind}/${path}`;
}

export const OBS_STATUS_ANSWER = {
  type: 'object',
  required: ['sources'],
  additionalProperties: false,
  properties: {
    sources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind', 'label', 'attribution', 'intervalMinutes', 'lastSuccess', 'ok'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          kind: { type: 'string', enum: OBS_KINDS },
          label: { type: 'string' },
          /** The credit line the upstream's licence asks for, shown with its data. */
          attribution: { type: 'string' },
          intervalMinutes: { type: 'number' },
          /** When the last poll that worked ended (ISO 8601), null before one has. */
          lastSuccess: { type: ['string', 'null'] },
          /** The last poll worked. */
          ok: { type: 'boolean' },
        },
      },
    },
  },
} as const;
export type ObsStatusAnswer = Infer<typeof OBS_STATUS_ANSWER>;
