import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount, formatLocalDateTime, formatTick } from './format.ts';

/**
 * A time series chart drawn by uPlot (a small canvas charting library with no dependencies):
 * one line with points per series, times on the x axis in the browser's time zone and language
 * (as Reports counts its days). Away from the cursor the legend shows each series' total, so the
 * values read without hovering; over a point, that interval's values.
 * A canvas says nothing to a screen reader: the figure carries a summary as its label, and each
 * page shows the same numbers as a table.
 */
export interface TimeSeries {
  label: string;
  /** Okabe-Ito colours: told apart with any colour vision. */
  colour: string;
  values: number[];
}

const at = (seconds: number) => new Date(seconds * 1000);

export function TimeChart({ title, times, series, height = 240 }: { title: string; times: Date[]; series: TimeSeries[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const totals = series.map((s) => s.values.reduce((a, b) => a + b, 0));
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(280, element.clientWidth),
      height,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [{ values: (_u, ticks) => ticks.map((t) => formatTick(at(t))) }, { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatCount(t) : '')) }],
      series: [
        { label: 'Start', value: (_u, t, _series, index) => (index === null || t === null ? 'all' : formatLocalDateTime(at(t))) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.colour,
          width: 2,
          points: { show: true, size: 6, fill: s.colour },
          value: (_u: uPlot, value: number | null, _series: number, index: number | null) => (index === null || value === null ? `${formatCount(totals[i]!)} in total` : formatCount(value)),
        })),
      ],
    };
    const chart = new uPlot(options, [times.map((t) => t.getTime() / 1000), ...series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [times, series, height]);
  const summary = series.map((s, i) => `${s.label}: ${formatCount(totals[i]!)} in total`).join(', ');
  return (
    <figure class="chart time-chart">
      <div ref={box} role="img" aria-label={`${title}. ${summary}. The table below has each interval.`} />
    </figure>
  );
}
