import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { exportedSeries, seriesNamedIn } from './support/exported-series';
import { K8S_DIR, readManifests } from './support/manifests';
import { anyOf, objectContaining } from '../../scripts/test-support/typed-matchers';

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Array<{ refId: string; expr: string }>;
}

const series = exportedSeries();
const known = new Set([...series.api, ...series.worker, ...series.inference]);
const dashboard = JSON.parse(readFileSync(path.join(K8S_DIR, 'monitoring/grafana-dashboard.json'), 'utf8')) as {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
};
const rules = readManifests()
  .filter((o) => o.kind === 'PrometheusRule')
  .flatMap((o) => {
    if (!o.spec?.groups) throw new Error(`${o.file}: a PrometheusRule without groups`);
    return o.spec.groups.flatMap((g) => g.rules);
  });
const unknownIn = (expr: string) => seriesNamedIn(expr).filter((name) => !known.has(name));

describe('the Grafana dashboard', () => {
  it('is a dashboard Grafana loads: uid, title, schema version, panels with unique ids, a type and a grid position', () => {
    expect(dashboard).toEqual(
      objectContaining({
        uid: anyOf(String),
        title: anyOf(String),
        schemaVersion: anyOf(Number),
      }),
    );
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) {
      expect(panel).toEqual(
        objectContaining({
          type: anyOf(String),
          title: anyOf(String),
          gridPos: objectContaining({ h: anyOf(Number), w: anyOf(Number) }),
        }),
      );
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    }
  });

  it('queries in every panel only series the API, the worker or the inference service register', () => {
    for (const panel of dashboard.panels) {
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect({
          panel: panel.title,
          named: seriesNamedIn(target.expr).length > 0,
          unknown: unknownIn(target.expr),
        }).toEqual({ panel: panel.title, named: true, unknown: [] });
      }
    }
  });

  it('shows every series the issue asks ops to watch', () => {
    const queried = new Set(dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => seriesNamedIn(t.expr))));
    const watched = [
      'bioverify_http_request_duration_seconds_count',
      'bioverify_sessions_created_total',
      'bioverify_capture_uploads_total',
      'bioverify_capture_refusals_total',
      'bioverify_decisions_total',
      'bioverify_decision_latency_seconds_bucket',
      'bioverify_decisions_pending',
      'bioverify_webhook_deliveries_total',
      'bioverify_webhook_outbox_pending',
      'bioverify_queue_jobs',
      'inference_queue_seconds_bucket',
    ];
    expect(watched.filter((name) => !queried.has(name))).toEqual([]);
  });
});

describe('the Prometheus alert rules', () => {
  it('alert on the decision backlog, webhook failures, inference queue time and the API error rate', () => {
    const expressions = rules.map((r) => r.expr).join('\n');
    for (const name of [
      'bioverify_decisions_pending',
      'bioverify_webhook_deliveries_total',
      'inference_queue_seconds_bucket',
      'bioverify_http_request_duration_seconds_count',
    ]) {
      expect(seriesNamedIn(expressions)).toContain(name);
    }
  });

  it('name only series the code registers', () => {
    for (const rule of rules)
      expect({ alert: rule.alert, unknown: unknownIn(rule.expr) }).toEqual({
        alert: rule.alert,
        unknown: [],
      });
  });
});

describe('the inference autoscaling metric', () => {
  it('is served by a prometheus-adapter rule built on a series the inference service exports', () => {
    const hpa = readManifests().find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && o.spec?.scaleTargetRef?.name === 'bioverify-inference',
    );
    const metricName = hpa?.spec?.metrics?.find((m) => m.type === 'Pods')?.pods?.metric.name;
    const adapter = readManifests().find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === 'prometheus-adapter-bioverify',
    );
    const adapterRules = (
      parse(adapter!.data!['config.yaml']) as { rules: Array<{ seriesQuery: string; name: { as: string } }> }
    ).rules;
    const rule = adapterRules.find((r) => r.name.as === metricName);
    expect(rule).toBeDefined();
    const sources = seriesNamedIn(rule!.seriesQuery);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((name) => !series.inference.includes(name))).toEqual([]);
  });
});
