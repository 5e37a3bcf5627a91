/**
 * The one place the sounding windows get their thermodynamic indices from (parcel curves, CAPE,
 * CIN, LCL, LFC, EL, lifted index, precipitable water, freezing level: common/sounding/types.ts
 * SoundingIndices). The windows take `analyse` as it is given here; null while the server-shared
 * analysis (common/sounding/) is not part of the build, and the windows then show no indices ("—")
 * and no parcel curve rather than figures of their own.
 */

import type { Sounding, SoundingIndices } from '../../../common/sounding/types.ts';

export type Analyse = (s: Sounding) => SoundingIndices;

export const analyse: Analyse | null = null;
