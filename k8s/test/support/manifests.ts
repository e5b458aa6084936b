import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const K8S_DIR = path.resolve(__dirname, '../..');

/** A Kubernetes object as parsed: only the fields the tests read are typed. */
export interface K8sObject {
  file: string;
  kind: string;
  apiVersion: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: K8sSpec;
  data?: Record<string, string>;
}

/** The spec fields the tests read; each kind has only its own. */
export interface K8sSpec {
  template?: PodTemplate;
  selector?: LabelSelector;
  scaleTargetRef?: { name: string };
  triggers?: Array<{ type: string; metadata: Record<string, string> }>;
  metrics?: Array<{ type: string; pods?: { metric: { name: string } } }>;
  groups?: Array<{ name: string; rules: AlertRule[] }>;
}

export interface LabelSelector {
  matchLabels: Record<string, string>;
}

export interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    terminationGracePeriodSeconds?: number;
    topologySpreadConstraints?: Array<{ topologyKey: string; labelSelector: LabelSelector }>;
  };
}

export interface AlertRule {
  alert: string;
  expr: string;
}

/** Every document of every YAML file under k8s/ (subfolders included, tests excluded). */
export function readManifests(dir = K8S_DIR): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'test') objects.push(...readManifests(full));
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) {
      for (const doc of parseAllDocuments(readFileSync(full, 'utf8'))) {
        if (doc.errors.length > 0) throw new Error(`${full}: ${doc.errors.map((e) => e.message).join('; ')}`);
        const value = doc.toJS() as K8sObject | null;
        if (value) objects.push({ ...value, file: path.relative(K8S_DIR, full) });
      }
    }
  }
  return objects;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ containerPort: number; name?: string }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
  grpc?: { port: number | string };
}

export const deployments = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment');
/** A workload's pod template; one without fails the test that reads it. */
export function podTemplateOf(workload: K8sObject): PodTemplate {
  const template = workload.spec?.template;
  if (!template) throw new Error(`${workload.file}: ${workload.kind} ${workload.metadata.name} has no pod template`);
  return template;
}

export const containersOf = (deployment: K8sObject): Container[] => podTemplateOf(deployment).spec.containers;
