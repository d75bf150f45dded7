import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string>;

/** One label set of a FastCounter: bump `value` directly. */
export interface CounterCell {
  readonly labels: Labels;
  value: number;
}

/** One label set of a FastHistogram: pass it to `observe`. */
export interface HistogramCell {
  readonly labels: Labels;
  /** Observations per bucket (not cumulative: summed when rendered); the last is +Inf. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * Series for the hottest paths (every request, every connection taken from the pool). A
 * prom-client counter or histogram hashes its label object on every call (measured here:
 * 3–5 µs a call on a loaded 2-core machine, 30 times a Map increment); these keep a cell
 * per label set that the caller holds, so an event is a few additions. prom-client still
 * renders them (they are registered as metrics of the app's registry).
 */
abstract class FastSeries<C extends { labels: Labels }> {
  protected readonly cells = new Map<string, C>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly labelNames: string[],
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  abstract readonly type: 'counter' | 'histogram';
  protected abstract make(labels: Labels): C;
  protected abstract render(cell: C): { value: number; labels: Labels; metricName?: string }[];

  /** The cell of `key` (any string naming the label set), made with `labels` the first time. */
  cell(key: string, labels: () => Labels): C {
    let cell = this.cells.get(key);
    if (!cell) {
      cell = this.make(labels());
      this.cells.set(key, cell);
    }
    return cell;
  }

  async get() {
    const values = [...this.cells.values()].flatMap((cell) => this.render(cell));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}

export class FastCounter extends FastSeries<CounterCell> {
  readonly type = 'counter';

  protected make(labels: Labels): CounterCell {
    return { labels, value: 0 };
  }

  protected render(cell: CounterCell) {
    return [{ value: cell.value, labels: cell.labels }];
  }
}

export class FastHistogram extends FastSeries<HistogramCell> {
  readonly type = 'histogram';

  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: string[],
    private readonly buckets: number[],
  ) {
    super(registry, name, help, labelNames);
  }

  protected make(labels: Labels): HistogramCell {
    return { labels, counts: new Array(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  observe(cell: HistogramCell, value: number): void {
    const { buckets } = this;
    let i = 0;
    while (i < buckets.length && value > (buckets[i] as number)) i += 1;
    cell.counts[i] = (cell.counts[i] as number) + 1;
    cell.sum += value;
    cell.count += 1;
  }

  protected render(cell: HistogramCell) {
    const rows: { value: number; labels: Labels; metricName: string }[] = [];
    let cumulative = 0;
    this.buckets.forEach((le, i) => {
      cumulative += cell.counts[i] as number;
      rows.push({
        metricName: `${this.name}_bucket`,
        labels: { ...cell.labels, le: String(le) },
        value: cumulative,
      });
    });
    rows.push({
      metricName: `${this.name}_bucket`,
      labels: { ...cell.labels, le: '+Inf' },
      value: cell.count,
    });
    rows.push({ metricName: `${this.name}_sum`, labels: cell.labels, value: cell.sum });
    rows.push({ metricName: `${this.name}_count`, labels: cell.labels, value: cell.count });
    return rows;
  }
}
