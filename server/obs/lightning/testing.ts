/**
 * Test helper: the three consecutive GOES-16 GLM L2 LCFA files of ../shared/data/obs/lightning
 * (never copied into the repository) and the key each has in NOAA's open bucket
 * (noaa-goes16/GLM-L2-LCFA/{year}/{day of year}/{hour}/{file name}).
 */

const ORIGINAL_NAMES = [
  'OR_GLM-L2-LCFA_G16_s20181830433000_e20181830433200_c20181830433231.nc',
  'OR_GLM-L2-LCFA_G16_s20181830433200_e20181830433400_c20181830433424.nc',
  'OR_GLM-L2-LCFA_G16_s20181830433400_e20181830434000_c20181830434029.nc',
] as const;

const STARTS = ['20180702T043300', '20180702T043320', '20180702T043340'] as const;

export const GLM_FIXTURES = ORIGINAL_NAMES.map((name, i) => ({
  /** Path under ../shared/data. */
  fixture: `obs/lightning/goes16_glm-l2-lcfa_${STARTS[i]}_${name}`,
  /** Key in the noaa-goes16 bucket. */
  key: `GLM-L2-LCFA/2018/183/04/${name}`,
  name,
  /** flash_count of the file (data/README.md). */
  flashes: [302, 277, 274][i],
}));
