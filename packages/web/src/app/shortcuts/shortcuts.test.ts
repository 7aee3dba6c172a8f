import { describe, expect, it } from 'vitest';
import { createShortcutReader, isTyping, JUMPS, jumpsFor, JUMP_WINDOW_MS } from './shortcuts';

const press = (key: string, timeStamp: number, target: EventTarget | null = document.body) => ({
  key,
  timeStamp,
  target,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
});
const everyone = { hasOrg: true, hasCluster: true, isOrgManager: true, hasSystemRole: true };

describe('keyboard shortcuts', () => {
  it('gives every jump its own letter', () => {
    const letters = JUMPS.map((j) => j.letter);
    expect(new Set(letters).size).toBe(letters.length);
  });

  it('jumps on g then a letter within the window, and not after it', () => {
    const read = createShortcutReader(() => jumpsFor(everyone));
    expect(read(press('g', 0))).toBeNull();
    expect(read(press('j', 100))).toEqual({ kind: 'go', path: '/jobs' });
    expect(read(press('g', 1000))).toBeNull();
    expect(read(press('j', 1000 + JUMP_WINDOW_MS + 1))).toBeNull();
    // A letter with no jump forgets the g.
    read(press('g', 5000));
    expect(read(press('z', 5001))).toBeNull();
    expect(read(press('j', 5002))).toBeNull();
  });

  it('reads / and ? on their own', () => {
    const read = createShortcutReader(() => jumpsFor(everyone));
    expect(read(press('/', 0))).toEqual({ kind: 'search' });
    expect(read(press('?', 1))).toEqual({ kind: 'help' });
  });

  it('offers only the jumps the user may follow', () => {
    const reader = jumpsFor({
      hasOrg: true,
      hasCluster: false,
      isOrgManager: false,
      hasSystemRole: false,
    });
    expect(reader.map((j) => j.label)).toEqual(['Home', 'People', 'Invitations']);
    const read = createShortcutReader(() => reader);
    read(press('g', 0));
    expect(read(press('j', 1))).toBeNull();
  });

  it('ignores keys typed into fields and dialogs, and with modifiers', () => {
    const input = document.createElement('input');
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = dialog.appendChild(document.createElement('button'));
    expect(isTyping(input)).toBe(true);
    expect(isTyping(button)).toBe(true);
    expect(isTyping(document.body)).toBe(false);
    const read = createShortcutReader(() => jumpsFor(everyone));
    expect(read(press('/', 0, input))).toBeNull();
    expect(read({ ...press('?', 1), ctrlKey: true })).toBeNull();
  });
});
