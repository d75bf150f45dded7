/**
 * Insight's charts in plain SVG (no library: a few shapes each). Every chart is drawn in a
 * fixed viewBox that scales with its box (text stays readable from 360 px to a desk: the box
 * stops growing at 640 px), is one image for screen readers (role="img" with a summary), and
 * has its real table one tap away in a <details> right below it.
 */
import { createContext, type ReactNode, useContext } from 'react';

/**
 * The charts' drawing width in SVG units: 320 on a phone, 600 on a desk, so that in a box of
 * about that many pixels a 12-unit text reads as 12 px on both.
 */
export const ChartWidth = createContext(320);

export interface Bar {
  key: string;
  label: string;
  value: number;
  /** The value as people read it (formatted), at the end of the bar. */
  shown: string;
}

export function ChartFigure({
  summary,
  tableLabel,
  chart,
  table,
}: {
  /** What the image says in a sentence, for screen readers. */
  summary: string;
  /** The <summary> of the table's disclosure. */
  tableLabel: string;
  chart: ReactNode;
  table: ReactNode;
}) {
  return (
    <figure className="insight-figure">
      <div className="insight-figure__chart" role="img" aria-label={summary}>
        {chart}
      </div>
      <details className="insight-figure__table">
        <summary>{tableLabel}</summary>
        {/* Wider than a phone (the heat map's eight columns, a day's five): it scrolls in
            its box, so the keyboard must reach it too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs focus to scroll by keyboard. */}
        <section className="table-scroll" aria-label={tableLabel} tabIndex={0}>
          {table}
        </section>
      </details>
    </figure>
  );
}

/** Horizontal bars, one per row, label above its bar (long names wrap nowhere: they fit). */
export function BarChart({ bars }: { bars: Bar[] }) {
  const WIDTH = useContext(ChartWidth);
  const row = 34;
  const max = Math.max(1, ...bars.map((b) => b.value));
  // Room after the longest bar for its value (about 7 units a character at this size).
  const barSpace = WIDTH - 10 - 7 * Math.max(4, ...bars.map((b) => b.shown.length));
  return (
    <svg
      className="insight-svg"
      viewBox={`0 0 ${WIDTH} ${Math.max(row, bars.length * row)}`}
      aria-hidden="true"
      focusable="false"
    >
      {bars.map((b, i) => {
        const y = i * row;
        const w = b.value > 0 ? Math.max(2, (b.value / max) * barSpace) : 0;
        return (
          <g key={b.key}>
            <text x={0} y={y + 11} className="insight-svg__label">
              {b.label.length > 44 ? `${b.label.slice(0, 43)}…` : b.label}
            </text>
            <rect x={0} y={y + 15} width={w} height={12} rx={3} className="insight-svg__bar" />
            <text x={w + 6} y={y + 25} className="insight-svg__value">
              {b.shown}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export interface TrendPoint {
  date: string;
  visits: number;
  served: number;
}

/** Visits and served per day: two lines (one point each for a single day), the peak labelled. */
export function TrendChart({
  points,
  firstLabel,
  lastLabel,
  peakLabel,
}: {
  points: TrendPoint[];
  firstLabel: string;
  lastLabel: string;
  peakLabel: string;
}) {
  const WIDTH = useContext(ChartWidth);
  const height = 150;
  const top = 18;
  const bottom = 22;
  const left = 4;
  const right = 4;
  const max = Math.max(1, ...points.map((p) => p.visits));
  const n = points.length;
  const x = (i: number) => (n === 1 ? WIDTH / 2 : left + (i / (n - 1)) * (WIDTH - left - right));
  const y = (v: number) => top + (1 - v / max) * (height - top - bottom);
  const line = (pick: (p: TrendPoint) => number) =>
    points.map((p, i) => `${x(i).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(' ');
  return (
    <svg
      className="insight-svg"
      viewBox={`0 0 ${WIDTH} ${height}`}
      aria-hidden="true"
      focusable="false"
    >
      <line x1={left} x2={WIDTH - right} y1={y(0)} y2={y(0)} className="insight-svg__axis" />
      <line x1={left} x2={WIDTH - right} y1={y(max)} y2={y(max)} className="insight-svg__grid" />
      <text x={left} y={top - 6} className="insight-svg__value">
        {peakLabel}
      </text>
      {n === 1 ? (
        <>
          <circle cx={x(0)} cy={y(points[0]?.visits ?? 0)} r={4} className="insight-svg__dot" />
          <circle cx={x(0)} cy={y(points[0]?.served ?? 0)} r={4} className="insight-svg__dot2" />
        </>
      ) : (
        <>
          <polyline points={line((p) => p.visits)} className="insight-svg__line" />
          <polyline points={line((p) => p.served)} className="insight-svg__line2" />
        </>
      )}
      <text x={left} y={height - 6} className="insight-svg__label">
        {firstLabel}
      </text>
      <text x={WIDTH - right} y={height - 6} textAnchor="end" className="insight-svg__label">
        {lastLabel}
      </text>
    </svg>
  );
}

/** Arrivals per weekday (rows, Monday first) and hour (columns): darker is busier. */
export function HeatMap({
  cells,
  hours,
  weekdays,
}: {
  cells: Map<string, number>;
  /** The hours shown, in order (0–23). */
  hours: number[];
  /** Monday … Sunday, short, in the reader's language. */
  weekdays: string[];
}) {
  const WIDTH = useContext(ChartWidth);
  const labelW = 34;
  const cellW = Math.min(WIDTH > 320 ? 56 : 32, (WIDTH - labelW) / Math.max(1, hours.length));
  const cellH = 20;
  const top = 16;
  const max = Math.max(1, ...cells.values());
  const width = labelW + cellW * hours.length;
  return (
    <svg
      className="insight-svg"
      viewBox={`0 0 ${width} ${top + cellH * 7}`}
      // Drawn at most at its own size: a day of one busy hour is a column, not a poster.
      style={{ maxWidth: `${width * 1.25}px` }}
      aria-hidden="true"
      focusable="false"
    >
      {hours.map((h, j) => (
        <text
          key={h}
          x={labelW + j * cellW + cellW / 2}
          y={11}
          textAnchor="middle"
          className="insight-svg__tick"
        >
          {h}
        </text>
      ))}
      {weekdays.map((day, i) => (
        <g key={day}>
          <text x={0} y={top + i * cellH + 14} className="insight-svg__tick">
            {day}
          </text>
          {hours.map((h, j) => {
            const n = cells.get(`${i + 1}:${h}`) ?? 0;
            return (
              <rect
                key={h}
                x={labelW + j * cellW + 1}
                y={top + i * cellH + 1}
                width={cellW - 2}
                height={cellH - 2}
                rx={3}
                className={n === 0 ? 'insight-svg__cell0' : 'insight-svg__cell'}
                style={n === 0 ? undefined : { fillOpacity: 0.15 + 0.85 * (n / max) }}
              />
            );
          })}
        </g>
      ))}
    </svg>
  );
}
