import { describe, expect, it } from 'vitest';
import { toJobBody, type JobFormValues } from './job-body';

const PLACE = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };
const values = (over: Partial<JobFormValues>) => ({ image: ' ubuntu ', ...over }) as JobFormValues;

describe('job form values → POST /jobs?from_preset body', () => {
  it('fills what the template leaves out with the server’s defaults and trims text', () => {
    const { body } = toJobBody(values({ name: '  ', working_dir: ' /w ' }), PLACE);
    expect(body).toMatchObject({
      clusterName: 'default',
      orgName: 'acme',
      projectName: 'vision',
      image: 'ubuntu',
      name: undefined,
      workingDir: '/w',
      tags: [],
      env: {},
      secretEnv: {},
      http: undefined,
      scheduleTimeout: undefined,
      restartPolicy: 'never',
      resources: { shm: false },
    });
  });

  it('splits env entries into env and secret_env', () => {
    const { body } = toJobBody(
      values({
        env: [
          { name: 'A', value: '1', type: 'variable' },
          { name: 'T', value: 'secret:tok', type: 'secret' },
        ],
      }),
      PLACE,
    );
    expect(body.env).toEqual({ A: '1' });
    expect(body.secretEnv).toEqual({ T: 'secret://default/acme/vision/tok' });
  });

  it('maps server paths back to the rows of the env and volumes editors', () => {
    const { toFormPath } = toJobBody(
      values({
        env: [
          { name: 'A', value: '1', type: 'variable' },
          { name: 'T', value: 'secret:tok', type: 'secret' },
        ],
        volumes: [
          { type: 'secret', name: '', resource: 'secret:k', path: '/s', mode: 'ro' },
          { type: 'storage', name: '', resource: '', path: '', mode: 'ro' },
          { type: 'disk', name: '', resource: 'disk:d', path: 'rel', mode: 'rw' },
        ],
      }),
      PLACE,
    );
    expect(toFormPath('secret_env.T')).toBe('env.1.name');
    expect(toFormPath('env.A')).toBe('env.0.name');
    expect(toFormPath('disk_volumes.0.dst_path')).toBe('volumes.2.path');
    expect(toFormPath('secret_volumes.0.src_secret_uri')).toBe('volumes.0.resource');
    expect(toFormPath('disk_volumes.0')).toBe('volumes.2.resource');
    expect(toFormPath('http.port')).toBe('http.port');
  });
});
