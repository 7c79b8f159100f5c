import { formatCount } from './format.ts';

/**
 * Small hand-drawn SVG bar charts. Bars are sized in percent of the chart's width (SVG
 * allows that on x and width), so text keeps its size while the chart fits any screen.
 */
export interface Series {
  key: string;
  label: string;
  /** A CSS class giving the bars their colour (chart.css). */
  tone: string;
}

export interface Group {
  label: string;
  /** The label under a column, line by line (default: `label`). */
  axis?: string[];
  values: Record<string, number>;
}

function maxOf(groups: Group[], series: Series[]): number {
  return Math.max(1, ...groups.flatMap((g) => series.map((s) => g.values[s.key] ?? 0)));
}

export function Legend({ series }: { series: Series[] }) {
  return (
    <ul class="legend" aria-hidden="true">
      {series.map((s) => (
        <li key={s.key}>
          <svg width="12" height="12" class="legend__swatch">
            <rect width="12" height="12" rx="3" class={s.tone} />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function describe(groups: Group[], series: Series[], format: (value: number) => string = formatCount): string {
  return groups.map((g) => `${g.label}: ${series.map((s) => `${format(g.values[s.key] ?? 0)} ${s.label.toLowerCase()}`).join(', ')}`).join('; ');
}

/** One row per group: its label, then one horizontal bar per series with its value, written by `format` (a count unless told). */
export function HorizontalBars({ title, groups, series, format = formatCount }: { title: string; groups: Group[]; series: Series[]; format?: (value: number) => string }) {
  const max = maxOf(groups, series);
  const bar = 14;
  const gap = 4;
  const labelHeight = 22;
  const rowHeight = labelHeight + series.length * (bar + gap) + 14;
  const usable = 82; // percent of the width for the longest bar; the rest holds its value
  return (
    <figure class="chart">
      <Legend series={series} />
      <svg class="chart__svg" width="100%" height={groups.length * rowHeight} role="img" aria-label={`${title}. ${describe(groups, series, format)}`}>
        {groups.map((group, row) => {
          const top = row * rowHeight;
          return (
            <g key={group.label}>
              <text x="0" y={top + 15} class="chart__label">
                {group.label}
              </text>
              {series.map((s, i) => {
                const value = group.values[s.key] ?? 0;
                const width = (value / max) * usable;
                const y = top + labelHeight + i * (bar + gap);
                return (
                  <g key={s.key}>
                    <rect x="0" y={y} width="100%" height={bar} rx="3" class="chart__track" />
                    <rect x="0" y={y} width={`${Math.max(width, value > 0 ? 0.6 : 0)}%`} height={bar} rx="3" class={s.tone} />
                    <text x={`${width}%`} dx="6" y={y + bar - 3} class="chart__value">
                      {format(value)}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** One column group per label (a day), one vertical bar per series, values above the bars. */
export function ColumnBars({ title, groups, series }: { title: string; groups: Group[]; series: Series[] }) {
  const max = maxOf(groups, series);
  const plot = 160;
  const top = 22;
  const labels = 18 + 15 * Math.max(1, ...groups.map((g) => g.axis?.length ?? 1));
  const slot = 100 / groups.length;
  const barWidth = (slot * 0.7) / series.length;
  return (
    <figure class="chart">
      <Legend series={series} />
      <svg class="chart__svg" width="100%" height={top + plot + labels} role="img" aria-label={`${title}. ${describe(groups, series)}`}>
        {[0, 0.5, 1].map((fraction) => (
          <line key={fraction} x1="0" x2="100%" y1={top + plot - fraction * plot} y2={top + plot - fraction * plot} class="chart__grid" />
        ))}
        {groups.map((group, column) => {
          const left = column * slot + slot * 0.15;
          return (
            <g key={group.label}>
              {series.map((s, i) => {
                const value = group.values[s.key] ?? 0;
                const height = (value / max) * plot;
                const x = left + i * barWidth;
                return (
                  <g key={s.key}>
                    <rect x={`${x + barWidth * 0.08}%`} y={top + plot - height} width={`${barWidth * 0.84}%`} height={Math.max(height, value > 0 ? 2 : 0)} rx="2" class={s.tone} />
                    {value > 0 && (
                      <text x={`${x + barWidth / 2}%`} y={top + plot - height - 5} text-anchor="middle" class="chart__value chart__value--small">
                        {formatCount(value)}
                      </text>
                    )}
                  </g>
                );
              })}
              {(group.axis ?? [group.label]).map((line, i) => (
                <text key={i} x={`${column * slot + slot / 2}%`} y={top + plot + 18 + i * 15} text-anchor="middle" class="chart__label chart__label--small">
                  {line}
                </text>
              ))}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
