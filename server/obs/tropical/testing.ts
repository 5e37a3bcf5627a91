/** Test helper: the tropical cyclone fixtures of ../shared/data/obs/tropical (never copied here). */

export const TROPICAL_FIXTURE = {
  vongfong: 'obs/tropical/jtwc_atcf-bdeck_wp192014_vongfong_bwp192014.dat',
  neoguri: 'obs/tropical/jtwc_atcf-bdeck_wp082014_neoguri_bwp082014.dat',
} as const;
