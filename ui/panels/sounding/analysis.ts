/**
 * The one place the sounding windows get their thermodynamic indices from (parcel curves, CAPE,
 * CIN, LCL, LFC, EL, lifted index, precipitable water, freezing level: common/sounding/types.ts
 * SoundingIndices): the analysis the server's tests check against the published indices of the
 * fixture soundings (common/sounding/analysis.ts).
 */

import { analyseSounding } from '../../../common/sounding/analysis.ts';
import type { Sounding, SoundingIndices } from '../../../common/sounding/types.ts';

export type Analyse = (s: Sounding) => SoundingIndices;

export const analyse: Analyse = analyseSounding;
