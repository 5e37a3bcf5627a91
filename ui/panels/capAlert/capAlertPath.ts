/** The alert-detail window's path (SPEC §2 /cap-alert/{lat}/{lon}), with the grid of SPEC §9's 3 decimals. */
export const capAlertPath = (lat: number, lon: number): string => `/cap-alert/${lat.toFixed(3)}/${lon.toFixed(3)}`;
