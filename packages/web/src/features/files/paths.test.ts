import { describe, expect, it } from 'vitest';
import { extensionOf, nameError, previewKind, splitPath, storageValue } from './paths';

describe('files paths', () => {
  it('splits query paths and builds storage: values', () => {
    expect(splitPath('/a//b/../c/')).toEqual(['a', 'b', 'c']);
    expect(splitPath(null)).toEqual([]);
    expect(storageValue(['a', 'b'])).toBe('storage:a/b');
  });

  it('knows extensions and preview kinds', () => {
    expect(extensionOf('Model.PT')).toBe('.pt');
    expect(extensionOf('.bashrc')).toBeNull();
    expect(extensionOf('README')).toBeNull();
    expect(previewKind('a.png')).toBe('image');
    expect(previewKind('a.mp3')).toBe('audio');
    expect(previewKind('a.webm')).toBe('video');
    expect(previewKind('a.csv')).toBe('text');
    expect(previewKind('a.svg')).toBeNull();
    expect(previewKind('a.bin')).toBeNull();
  });

  it('wants one name of at least one character', () => {
    expect(nameError(' ')).toBe('Required');
    expect(nameError('a/b')).toBe('A name cannot contain "/"');
    expect(nameError('..')).toBe('A name cannot be "." or ".."');
    expect(nameError('x')).toBeNull();
  });
});
