/** Test helper: the satellite fixtures of ../shared/data/obs/satellite (never copied into the repository). */

export const SATELLITE_FIXTURE = {
  nwcsafCt: 'obs/satellite/msg3-nwcsaf_cloudtype_201304290415_belgium_SAFNWC_MSG3_CT___201304290415_BEL_________.h5',
} as const;
