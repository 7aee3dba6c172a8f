import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';

const base = { ORRERY_DATA_DIR: '/tmp/orrery-config-test' };
const s3 = {
  ORRERY_S3_ENDPOINT: 'http://127.0.0.1:9000/',
  ORRERY_S3_ACCESS_KEY_ID: 'id',
  ORRERY_S3_SECRET_ACCESS_KEY: 'secret',
};

describe('ORRERY_S3_* configuration', () => {
  it('is absent by default and read with its defaults when set', () => {
    expect(loadConfig(base).s3).toBeUndefined();
    expect(loadConfig({ ...base, ...s3, ORRERY_S3_STORAGE_BUCKET: 'files' }).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      storageBucket: 'files',
      forcePathStyle: true,
      shareKeys: false,
    });
    expect(
      loadConfig({ ...base, ...s3, ORRERY_S3_FORCE_PATH_STYLE: 'False' }).s3?.forcePathStyle,
    ).toBe(false);
  });

  it.each([
    ['ORRERY_S3_ENDPOINT', { ...s3, ORRERY_S3_ENDPOINT: 'not a url' }],
    ['ORRERY_S3_STORAGE_BUCKET', { ...s3, ORRERY_S3_STORAGE_BUCKET: 'Bad_Bucket' }],
    ['ORRERY_S3_FORCE_PATH_STYLE', { ...s3, ORRERY_S3_FORCE_PATH_STYLE: 'maybe' }],
    ['ORRERY_S3_SECRET_ACCESS_KEY', { ...s3, ORRERY_S3_SECRET_ACCESS_KEY: '' }],
    ['ORRERY_S3_ACCESS_KEY_ID', { ORRERY_S3_ENDPOINT: s3.ORRERY_S3_ENDPOINT }],
    ['ORRERY_S3_STORAGE_BUCKET', { ORRERY_S3_STORAGE_BUCKET: 'files' }],
  ])('stops the start naming %s', (name, env) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(name);
  });
});
