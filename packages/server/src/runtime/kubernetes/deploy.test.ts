import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { assertValidObject } from '../../test/kube-schema.js';
import { SERVER_SELECTOR } from './names.js';

/**
 * deploy/kubernetes: the manifests that run Orrery itself on Kubernetes, validated against the
 * Kubernetes 1.32 OpenAPI schema (kube-schema.ts) and against what the server and its driver
 * need. No cluster applies them here (docs/runtimes.md).
 */
const dir = fileURLToPath(new URL('../../../../../deploy/kubernetes/', import.meta.url));
type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: unknown;
};
const objects: Obj[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => loadAllYaml(readFileSync(join(dir, f), 'utf8')) as Obj[]);
const find = (kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name) as Obj & Record<string, never>;

describe('deploy/kubernetes', () => {
  it('holds only objects valid against the OpenAPI schema', () => {
    expect(objects.length).toBeGreaterThan(8);
    for (const o of objects) assertValidObject(o);
  });

  it('runs several replicas labelled as the jobs’ NetworkPolicies expect', () => {
    const d = find('Deployment', 'orrery') as unknown as {
      spec: {
        replicas: number;
        template: {
          metadata: { labels: Record<string, string> };
          spec: { serviceAccountName: string };
        };
      };
    };
    expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(d.spec.template.metadata.labels).toMatchObject(SERVER_SELECTOR);
    expect(d.spec.template.spec.serviceAccountName).toBe('orrery');
    expect(find('Service', 'orrery')).toBeTruthy();
    expect(find('Ingress', 'orrery')).toBeTruthy();
  });

  it('configures a server that starts: PostgreSQL, S3 and the kubernetes runtime', () => {
    const cm = find('ConfigMap', 'orrery-config') as unknown as { data: Record<string, string> };
    const secret = find('Secret', 'orrery-secrets') as unknown as {
      stringData: Record<string, string>;
    };
    const env = { ...cm.data, ...secret.stringData, ORRERY_SECRETS_KEY: 'a'.repeat(64) };
    const config = loadConfig(env);
    expect(config.runtime.kind).toBe('kubernetes');
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.s3?.endpoint).toBeTruthy();
    expect(find('PersistentVolumeClaim', config.runtime.kube.storageClaim!)).toBeTruthy();
    expect(find('Namespace', config.runtime.kube.namespace!)).toBeTruthy();
  });

  it('grants the driver every call it makes, in the jobs’ namespace', () => {
    type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
    const role = find('Role', 'orrery-jobs') as unknown as { rules: Rule[] };
    const cluster = find('ClusterRole', 'orrery-capacity') as unknown as { rules: Rule[] };
    const allows = (rules: Rule[], group: string, resource: string, verb: string) =>
      rules.some(
        (r) =>
          r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb),
      );
    const calls: Array<[string, string, string]> = [
      ['', 'pods', 'create'],
      ['', 'pods', 'delete'],
      ['', 'pods', 'get'],
      ['', 'pods', 'list'],
      ['', 'pods', 'watch'],
      ['', 'pods/log', 'get'],
      ['', 'pods/exec', 'create'],
      ['', 'pods/attach', 'create'],
      ['', 'pods/portforward', 'create'],
      ['', 'services', 'create'],
      ['', 'services', 'delete'],
      ['', 'secrets', 'create'],
      ['', 'secrets', 'delete'],
      ['', 'persistentvolumeclaims', 'create'],
      ['', 'events', 'list'],
      ['networking.k8s.io', 'networkpolicies', 'create'],
      ['networking.k8s.io', 'networkpolicies', 'delete'],
      ['metrics.k8s.io', 'pods', 'get'],
    ];
    for (const [group, resource, verb] of calls) {
      expect(allows(role.rules, group, resource, verb), `${verb} ${group}/${resource}`).toBe(true);
    }
    expect(allows(cluster.rules, '', 'nodes', 'list')).toBe(true);
    expect(allows(cluster.rules, '', 'pods', 'list')).toBe(true);
  });
});
