import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Metrics } from './metrics.js';

/**
 * The Grafana dashboard and the Prometheus files in deploy/ name series by hand: each name
 * and label they use must be one the app exports, or a panel stays empty and an alert
 * never fires, silently.
 */
const deploy = path.resolve(import.meta.dirname, '../../../../../deploy');
const read = (file: string) => readFileSync(path.join(deploy, file), 'utf8');

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: { expr: string; datasource?: { uid: string } }[];
}

const dashboard = JSON.parse(read('grafana/qless-dashboard.json')) as {
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown; definition?: string }[] };
};
const alerts = parse(read('prometheus/alerts.yml')) as { groups: { rules: Rule[] }[] };
const prometheus = parse(read('prometheus/prometheus.yml')) as {
  rule_files: string[];
  scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
};

const rules = alerts.groups.flatMap((g) => g.rules);
const panels = dashboard.panels.filter((p) => p.type !== 'row');
const expressions = [
  ...rules.map((r) => r.expr),
  ...panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
  ...dashboard.templating.list.flatMap((v) => (v.definition ? [v.definition] : [])),
];

/** Labels Prometheus adds to every series of a target (job, instance, the config's own). */
const TARGET_LABELS = new Set(['job', 'instance', 'deployment']);

describe('deploy/grafana and deploy/prometheus', () => {
  const metrics = new Metrics({ defaultMetrics: true });
  const exported = new Map(
    metrics.registry.getMetricsAsArray().map((m) => {
      const { name, labelNames, type } = m as unknown as {
        name: string;
        labelNames?: string[];
        type: string;
      };
      return [name, { labels: new Set(labelNames ?? []), histogram: type === 'histogram' }];
    }),
  );

  /** The exported series a name in an expression refers to, and whether it is a bucket. */
  const seriesOf = (name: string) => {
    const exact = exported.get(name);
    if (exact) return { series: exact, bucket: false };
    const suffix = /_(bucket|sum|count)$/.exec(name);
    const base = suffix ? exported.get(name.slice(0, suffix.index)) : undefined;
    return base?.histogram ? { series: base, bucket: suffix?.[1] === 'bucket' } : null;
  };

  it('the files parse and hold what an operator needs', () => {
    expect(prometheus.rule_files).toContain('alerts.yml');
    expect(prometheus.scrape_configs.map((s) => s.job_name)).toContain('qless');
    const datasource = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(datasource).toMatchObject({ name: 'datasource', query: 'prometheus' });
    for (const panel of panels) {
      expect(panel.datasource?.uid, panel.title).toBe(`\${datasource}`);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'QlessPaymentsStuck',
        'QlessSmsNotDraining',
        'QlessProviderSilent',
        'QlessProviderStatusChecksFailing',
        'QlessInstanceDown',
        'QlessInstanceNotReady',
      ]),
    );
    for (const rule of rules) {
      expect(['page', 'ticket'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
    }
  });

  it('every qless_ series they name, and every label they select on, is exported', () => {
    const names = new Set<string>();
    for (const expr of expressions) {
      for (const [, name] of expr.matchAll(/\b(qless_[a-z0-9_]+)\b/g)) names.add(name as string);
      for (const [, name, selector] of expr.matchAll(/\b(qless_[a-z0-9_]+)\{([^}]*)\}/g)) {
        const found = seriesOf(name as string);
        if (!found) continue;
        for (const [, label] of (selector as string).matchAll(/([a-z_]+)\s*(?:=~|!~|!=|=)/g)) {
          const known =
            found.series.labels.has(label as string) ||
            TARGET_LABELS.has(label as string) ||
            (found.bucket && label === 'le');
          expect(known, `${name}{${label}} in ${expr}`).toBe(true);
        }
      }
    }
    expect(names.size).toBeGreaterThan(15);
    for (const name of names) expect(seriesOf(name), name).not.toBeNull();
  });

  it('catches a typo (the check above can fail)', () => {
    expect(seriesOf('qless_payment_oldest_age_seconds')).toBeNull();
    expect(seriesOf('qless_outbox_pending_bucket')).toBeNull();
    expect(seriesOf('qless_payment_confirm_seconds_bucket')).not.toBeNull();
  });
});
