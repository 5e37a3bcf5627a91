/** Test helper: the warning fixtures of ../shared/data/obs/warnings (never copied into the repository). */

import { readFile } from 'node:fs/promises';
import { FIXTURES_DIR } from '../../live/testing.ts';

export const WARNING_FIXTURE = {
  /** api.weather.gov /alerts/active/zone/ORZ004, a zone-only Flood Watch (geometry null). */
  nwsZone: 'obs/warnings/nws-api_alerts-active-zone-ORZ004_20191220.geojson.json',
  /** ECCC frost advisory for Nova Scotia, en/fr, 42 polygons, sent 2022-10-10 18:15:20Z. */
  ecccFrost: 'obs/warnings/eccc_cap12_CWHX_202210101814_T_WOCN11_C_CWHX_202210101814_1032737847.cap',
  /** ECCC special air quality statement, in effect for two areas and ended for two, en/fr. */
  ecccAirQuality: 'obs/warnings/eccc_cap12_CWVR_202210101743_T_WOCN20_C_CWVR_202210101743_2051382770.cap',
} as const;

export const readWarningFixture = (name: keyof typeof WARNING_FIXTURE): Promise<string> =>
  readFile(`${FIXTURES_DIR}${WARNING_FIXTURE[name]}`, 'utf8');

/** 2022-10-10 19:00Z: after both ECCC fixtures were sent, before the frost advisory expires. */
export const ECCC_FIXTURE_NOW = Date.UTC(2022, 9, 10, 19);
