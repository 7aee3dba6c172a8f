import { describe, expect, it } from 'vitest';
import { actionOn, allows, type Grant } from './permissions.js';

describe('permission engine', () => {
  const grants: Grant[] = [
    { scheme: 'org', path: ['acme'], action: 'read' },
    { scheme: 'project-scoped', path: ['default', 'acme', 'vision'], action: 'write' },
    { scheme: 'storage', path: ['default', 'acme', 'other', 'shared'], action: 'read' },
  ];

  it('grants on the URI and below it, for every project-scoped scheme', () => {
    expect(actionOn(grants, 'job://default/acme/vision/job-1')).toBe('write');
    expect(actionOn(grants, 'storage://default/acme/vision/data/x.csv')).toBe('write');
    expect(actionOn(grants, 'project://default/acme/vision')).toBe('write');
    expect(allows(grants, 'secret://default/acme/vision/key', 'manage')).toBe(false);
  });

  it('does not leak to siblings that share a prefix of characters', () => {
    expect(actionOn(grants, 'project://default/acme/vision2')).toBeNull();
    expect(actionOn(grants, 'storage://default/acme/other/shared-not')).toBeNull();
    expect(actionOn(grants, 'storage://default/acme/other/shared/file')).toBe('read');
  });

  it('keeps organization grants off project resources and other orgs', () => {
    expect(actionOn(grants, 'org://acme')).toBe('read');
    expect(actionOn(grants, 'org://acme2')).toBeNull();
    expect(actionOn(grants, 'job://default/acme/else/job-1')).toBeNull();
  });

  it('refuses malformed and path-escaping URIs', () => {
    expect(actionOn([{ scheme: '*', path: [], action: 'manage' }], 'nonsense')).toBeNull();
    expect(actionOn(grants, 'storage://default/acme/vision/../other')).toBeNull();
  });

  it('gives a system admin everything', () => {
    expect(
      allows([{ scheme: '*', path: [], action: 'manage' }], 'cluster://default', 'manage'),
    ).toBe(true);
  });
});
