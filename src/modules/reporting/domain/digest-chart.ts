import { escapeHtml } from '../../../shared/http/escape-html.js';

/**
 * The digest's chart as SVG: cases created and closed per interval, as paired bars. Colours
 * from the Okabe-Ito palette (told apart with any colour vision) with a legend; the email's
 * text says the same figures, so the image is never the only way to read them.
 */
export const CHART_COLOURS = { created: '#0072B2', closed: '#E69F00' } as const;

export interface ChartBar {
  label: string;
  created: number;
  closed: number;
}

const WIDTH = 560;
const HEIGHT = 220;
const LEFT = 40;
const BOTTOM = 30;
const TOP = 30;


export function digestChartSvg(bars: readonly ChartBar[]): string {
  const max = Math.max(1, ...bars.flatMap((b) => [b.created, b.closed]));
  const plotWidth = WIDTH - LEFT - 10;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(1, (slot * 0.8) / 2);
  const y = (n: number) => TOP + plotHeight - (n / max) * plotHeight;
  const rects = bars.flatMap((b, i) => {
    const x = LEFT + i * slot + slot * 0.1;
    return [
      `<rect x="${x.toFixed(1)}" y="${y(b.created).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(TOP + plotHeight - y(b.created)).toFixed(1)}" fill="${CHART_COLOURS.created}"/>`,
      `<rect x="${(x + barWidth).toFixed(1)}" y="${y(b.closed).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(TOP + plotHeight - y(b.closed)).toFixed(1)}" fill="${CHART_COLOURS.closed}"/>`,
      `<text x="${(x + barWidth).toFixed(1)}" y="${HEIGHT - 10}" font-size="11" text-anchor="middle" fill="#333">${escapeHtml(b.label)}</text>`,
    ];
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<line x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - 10}" y2="${TOP + plotHeight}" stroke="#555"/>`,
    `<text x="${LEFT - 6}" y="${TOP + 4}" font-size="11" text-anchor="end" fill="#333">${max}</text>`,
    `<text x="${LEFT - 6}" y="${TOP + plotHeight}" font-size="11" text-anchor="end" fill="#333">0</text>`,
    `<rect x="${LEFT}" y="8" width="12" height="12" fill="${CHART_COLOURS.created}"/><text x="${LEFT + 16}" y="18" font-size="12" fill="#222">Created</text>`,
    `<rect x="${LEFT + 90}" y="8" width="12" height="12" fill="${CHART_COLOURS.closed}"/><text x="${LEFT + 106}" y="18" font-size="12" fill="#222">Closed</text>`,
    ...rects,
    '</svg>',
  ].join('');
}
