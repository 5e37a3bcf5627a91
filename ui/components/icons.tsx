/** Small inline SVG icons: no icon font, nothing to load. */

const PATHS: Record<string, string> = {
  wind: 'M3 8h10a3 3 0 1 0-3-3M3 12h15a3 3 0 1 1-3 3M3 16h7',
  gust: 'M3 7h9a2.5 2.5 0 1 0-2.5-2.5M3 11h14M3 15h10a2.5 2.5 0 1 1-2.5 2.5M15 7l4-2M17 13l4 1',
  temp: 'M10 4a2 2 0 1 1 4 0v9a4 4 0 1 1-4 0z M12 9v6',
  pressure: 'M12 3a9 9 0 1 0 9 9 M12 12l5-5 M12 7v1 M7 12h1',
  rain: 'M7 14a4 4 0 0 1 1-8 5 5 0 0 1 9.5 1.5A3.5 3.5 0 0 1 17 14H7 M8 17l-1 3 M12 17l-1 3 M16 17l-1 3',
  snow: 'M12 3v18 M4.2 7.5l15.6 9 M4.2 16.5l15.6-9 M9.5 4.5L12 6l2.5-1.5 M9.5 19.5L12 18l2.5 1.5',
  clouds: 'M6 18a4 4 0 0 1 0-8 6 6 0 0 1 11.3-1.5A4.5 4.5 0 0 1 17.5 18z',
  rh: 'M12 3c3 4.5 6 8 6 11a6 6 0 0 1-12 0c0-3 3-6.5 6-11z',
  cape: 'M13 2L5 14h6l-1 8 8-12h-6z',
  waves: 'M2 9c2.5-2 4.5-2 7 0s4.5 2 7 0 4.5-2 6 0 M2 15c2.5-2 4.5-2 7 0s4.5 2 7 0 4.5-2 6 0',
  warning: 'M12 3L2 20h20z M12 9v5 M12 17v.5',
  hurricane: 'M12 9a3 3 0 1 0 0 6 3 3 0 1 0 0-6 M9 9.5C8 6 11 3 16 3 M15 14.5c1 3.5-2 6.5-7 6.5',
  airq: 'M5 16a3 3 0 1 0 6 0 3 3 0 1 0-6 0 M14 8a2 2 0 1 0 4 0 2 2 0 1 0-4 0 M15 17a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0 M6 6a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0',
  play: 'M8 5v14l11-7z',
  pause: 'M7 5h4v14H7zM13 5h4v14h-4z',
  prev: 'M15 6l-6 6 6 6',
  next: 'M9 6l6 6-6 6',
  plus: 'M12 5v14M5 12h14',
  minus: 'M5 12h14',
  close: 'M6 6l12 12M18 6L6 18',
  menu: 'M4 7h16M4 12h16M4 17h16',
  file: 'M6 3h8l4 4v14H6z M14 3v4h4 M12 17v-6 M9.5 13.5L12 11l2.5 2.5',
};

export function OverlayIcon({ ident, size = 20 }: { ident: string; size?: number }) {
  const filled = ident === 'play' || ident === 'pause';
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true"
      fill={filled ? 'currentColor' : 'none'} stroke={filled ? 'none' : 'currentColor'} strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[ident] ?? PATHS.wind} />
    </svg>
  );
}
