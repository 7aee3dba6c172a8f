import { describe, expect, it } from 'vitest';
import { normalizeName, toCamel, toSnake } from './index.js';

describe('wire case conversion', () => {
  it('converts keys both ways, deeply, and back to the same object', () => {
    const wire = { org_name: 'a', balance: { total_credits: '1' }, items: [{ is_default: true }] };
    const camel = toCamel(wire);
    expect(camel).toEqual({
      orgName: 'a',
      balance: { totalCredits: '1' },
      items: [{ isDefault: true }],
    });
    expect(toSnake(camel)).toEqual(wire);
  });

  it('leaves the keys of user-owned maps alone', () => {
    const wire = { env: { MY_VAR: '1', lower_case: '2' }, secret_env: { API_KEY: 'secret://x' } };
    expect(toCamel(wire)).toEqual({
      env: { MY_VAR: '1', lower_case: '2' },
      secretEnv: { API_KEY: 'secret://x' },
    });
  });
});

describe('name normalisation', () => {
  it.each([
    ['  My Team  ', 'my-team'],
    ['Vision  Lab - 2', 'vision-lab-2'],
    ['--x--', 'x'],
  ])('%j → %j', (raw, out) => expect(normalizeName(raw)).toBe(out));
});
