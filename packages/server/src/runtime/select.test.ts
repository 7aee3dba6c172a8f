import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDriver } from './select.js';

describe('createDriver', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orrery-select-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const pick = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const config = loadConfig({ ORRERY_DATA_DIR: dataDir, ...env });
    const driver = await createDriver(config, { info: (m: string) => lines.push(m) });
    await driver.close();
    return { name: driver.name, lines };
  };

  it('takes the process runtime when no Docker engine answers, and says why', async () => {
    const socket = `unix://${join(dataDir, 'no-docker.sock')}`;
    expect(await pick({ DOCKER_HOST: socket })).toEqual({
      name: 'process',
      lines: [`Jobs run on the process runtime: no Docker engine answers at ${socket}`],
    });
  });

  it('takes the runtime ORRERY_RUNTIME names', async () => {
    expect(await pick({ ORRERY_RUNTIME: 'process' })).toMatchObject({
      name: 'process',
      lines: ['Jobs run on the process runtime: ORRERY_RUNTIME=process'],
    });
  });

  it('names what the slurm runtime lacks, and refuses root as its user', async () => {
    await expect(pick({ ORRERY_RUNTIME: 'slurm' })).rejects.toThrow(
      /ORRERY_RUNTIME=slurm needs ORRERY_SLURM_USER/,
    );
    await expect(
      pick({
        ORRERY_RUNTIME: 'slurm',
        ORRERY_SLURM_USER: 'nobody',
        ORRERY_SLURM_SHARED_DIR: '/srv',
        ORRERY_SLURM_API: 'rest',
      }),
    ).rejects.toThrow(/needs ORRERY_SLURM_REST_URL/);
    expect(() => loadConfig({ ORRERY_SLURM_USER: 'root' })).toThrow(/ORRERY_SLURM_USER/);
  });

  it('refuses an unknown runtime', () => {
    expect(() => loadConfig({ ORRERY_RUNTIME: 'nomad' })).toThrow(/ORRERY_RUNTIME/);
  });
});
