import { describe, expect, it } from 'vitest';
import type { Preset } from './environment';
import { choosePreset } from './presets';

const GB = 1e9;
const preset = (name: string, cpu: number, memory: number) =>
  ({ name, cpu, memory, creditsPerHour: '1' }) as Preset;

describe('preset fallback', () => {
  const presets = [
    preset('big', 4, 16 * GB),
    preset('tiny', 0.1, 0.5 * GB),
    preset('small-mem', 1, 0.9 * GB),
    preset('medium-b', 1, 4 * GB),
    preset('medium-a', 1, 2 * GB),
    preset('half', 0.5, GB),
  ];

  it('keeps the wanted preset when the cluster has it', () => {
    expect(choosePreset(presets, 'tiny')?.name).toBe('tiny');
  });

  it('else takes the first by cpu then memory with at least 0.5 cpu and 1 GB', () => {
    expect(choosePreset(presets, 'gone')?.name).toBe('half');
    expect(choosePreset(presets.filter((p) => p.name !== 'half'))?.name).toBe('medium-a');
  });

  it('finds none when no preset is big enough', () => {
    expect(choosePreset([preset('tiny', 0.1, GB), preset('low', 2, 0.5 * GB)])).toBeNull();
    expect(choosePreset([])).toBeNull();
  });
});
