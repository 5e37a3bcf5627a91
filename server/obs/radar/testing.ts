/** Test helper: the radar fixtures of ../shared/data/obs/radar (never copied into the repository). */

import { FIXTURES_DIR } from '../../live/testing.ts';

export const RADAR_FIXTURE = {
  mrms: 'obs/radar/mrms_ReflectivityAtLowestAltitude_00.50_20230406-120039.grib2.gz',
  mrmsWgrib2: 'obs/radar/mrms_ReflectivityAtLowestAltitude_00.50_20230406-120039_wgrib2-le.bin.xz',
  radolanRx: 'obs/radar/dwd_radolan-rx_201408102050_raa01-rx_10000-1408102050-dwd---bin.gz',
  radolanRw: 'obs/radar/dwd_radolan-rw_201408102050_raa01-rw_10000-1408102050-dwd---bin.gz',
  radvor: 'obs/radar/dwd_radvor-rv_202210180700_DE1200_RV2210180700.tar.bz2',
  odimComp: 'obs/radar/rmi-belgium_odim-comp_20190606T0000.hdf',
} as const;

export function radarFixturePath(name: keyof typeof RADAR_FIXTURE): string {
  return FIXTURES_DIR + RADAR_FIXTURE[name];
}
