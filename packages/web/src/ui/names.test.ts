import { normalizeName } from '@orrery/contract';
import { describe, expect, it } from 'vitest';
import { ORG_NAME_MESSAGES } from '../features/orgs/texts';
import { PROJECT_NAME_MESSAGES } from '../features/projects/texts';
import { validateName } from './names';

describe('name rules', () => {
  it('requires a name that is not only whitespace', () => {
    expect(validateName('', ORG_NAME_MESSAGES)).toBe('Organization name is required');
    expect(validateName('   ', ORG_NAME_MESSAGES)).toBe('Organization name is required');
    expect(validateName('', PROJECT_NAME_MESSAGES)).toBe('Project name is required');
  });

  it('accepts only letters, digits, spaces and hyphens', () => {
    expect(validateName('My Team-2', ORG_NAME_MESSAGES)).toBeNull();
    expect(validateName('acme_corp', ORG_NAME_MESSAGES)).toBe('Organization name is invalid');
    expect(validateName('vision!', PROJECT_NAME_MESSAGES)).toBe('Project name is invalid');
    expect(validateName('- -', PROJECT_NAME_MESSAGES)).toBe('Project name is invalid');
  });

  it('normalises names to the platform form before sending', () => {
    expect(normalizeName('  My  Team -- 2 ')).toBe('my-team-2');
  });
});
