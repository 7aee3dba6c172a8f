import type { JobSpec } from '../runtime/driver.js';

/** A job using everything the kubernetes runtime turns into objects. */
export const fullSpec = (over: Partial<JobSpec> = {}): JobSpec => ({
  id: 'job-0b7e0d8a-3f7e-4a51-9a8e-1d2c3b4a5f60',
  image: 'registry.example/org/train:1',
  entrypoint: 'python',
  command: "train.py --name 'a b'",
  workingDir: '/work',
  env: { PLAIN: '1', TOKEN: 's3cret' },
  secretEnv: ['TOKEN'],
  mounts: [
    {
      hostPath: '/data/storage/c/o/p/in',
      dstPath: '/in',
      readOnly: true,
      source: { kind: 'storage', path: 'c/o/p/in' },
    },
    {
      hostPath: '/data/disks/d',
      dstPath: '/disk',
      readOnly: false,
      source: { kind: 'disk', id: 'disk-1234', bytes: 10 * 2 ** 30 },
    },
    {
      hostPath: '/data/jobs/x/secrets/0',
      dstPath: '/etc/key',
      readOnly: true,
      source: { kind: 'secret' },
    },
  ],
  limits: {
    cpu: 2.5,
    memory: 8 * 2 ** 30,
    shm: true,
    gpu: { vendor: 'nvidia', count: 2, model: 'A100' },
  },
  httpPort: 8080,
  project: 'c/o/p',
  tty: true,
  privileged: false,
  registryAuth: { username: 'alice', password: 'tok', serveraddress: 'registry.example' },
  placement: {
    pools: ['gpu-a100'],
    preemptible: true,
    restartPolicy: 'on-failure',
    maxRunTimeMinutes: 90,
  },
  ...over,
});

/**
 * A kubeconfig for the API server stand-in at `url`, as `kubectl config view` writes one: context
 * `jobs` (namespace orrery-jobs) and `other` (current, no namespace).
 */
export const standInKubeconfig = (url: string) =>
  [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    // client-node speaks plain HTTP (the stand-in has no TLS) only with TLS checks off.
    `- name: stand-in\n  cluster:\n    server: ${url}\n    insecure-skip-tls-verify: true`,
    'users:',
    '- name: orrery\n  user:\n    token: stand-in-token',
    'contexts:',
    '- name: jobs\n  context:\n    cluster: stand-in\n    user: orrery\n    namespace: orrery-jobs',
    '- name: other\n  context:\n    cluster: stand-in\n    user: orrery',
    'current-context: other',
  ].join('\n');
