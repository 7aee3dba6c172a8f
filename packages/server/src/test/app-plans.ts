import type { InstanceContext } from '../modules/apps/runner.js';

/** What the apps service hands a runner's `plan` for instance `demo` of acme/vision, on docker. */
export const planContext = (over: Partial<InstanceContext> = {}): InstanceContext => ({
  instanceId: 'i-1',
  name: 'demo',
  cluster: 'default',
  org: 'acme',
  project: 'vision',
  creator: 'alice',
  runtime: 'docker',
  preset: { name: 'cpu-small', cpu: 1, memoryBytes: 2 ** 30 },
  home: 'storage:.apps/x/demo',
  publicUrl: 'https://orrery.example',
  ...over,
});

/** A dify input: its PostgreSQL given by hand, the password a project secret of that key. */
export const difyInput = (passwordKey: string) => ({
  preset: { name: 'cpu-small' },
  postgres_user: {
    user: 'dify',
    password: { key: passwordKey },
    host: 'job-9.acme--vision',
    port: 5432,
    dbname: 'dify',
  },
});
