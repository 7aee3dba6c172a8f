/**
 * The console's keyboard shortcuts, in one table: `g` then a letter jumps to an area, `/` focuses
 * the page's search field, `?` lists the shortcuts. The help dialog is drawn from this table, so
 * what it lists is what the keys do.
 */

/** Who may follow a jump: the console never offers what the user cannot reach. */
export type JumpNeeds = 'nothing' | 'org' | 'cluster' | 'orgManager' | 'systemRole';

export interface Jump {
  letter: string;
  label: string;
  path: string;
  needs: JumpNeeds;
}

export const JUMPS: Jump[] = [
  { letter: 'h', label: 'Home', path: '/', needs: 'org' },
  { letter: 'a', label: 'Apps', path: '/apps', needs: 'cluster' },
  { letter: 'f', label: 'Files', path: '/files', needs: 'cluster' },
  { letter: 'b', label: 'Buckets', path: '/buckets', needs: 'cluster' },
  { letter: 'd', label: 'Disks', path: '/disks', needs: 'cluster' },
  { letter: 'i', label: 'Images', path: '/images', needs: 'cluster' },
  { letter: 's', label: 'Secrets', path: '/secrets', needs: 'cluster' },
  { letter: 'j', label: 'Jobs', path: '/jobs', needs: 'cluster' },
  { letter: 'l', label: 'Flows', path: '/flows', needs: 'cluster' },
  { letter: 'p', label: 'People', path: '/org-settings/users', needs: 'org' },
  { letter: 'v', label: 'Invitations', path: '/invites', needs: 'nothing' },
  { letter: 'c', label: 'Billing', path: '/org-billing/usage', needs: 'orgManager' },
  { letter: 'm', label: 'Administration', path: '/admin/users', needs: 'systemRole' },
];

export interface JumpRights {
  hasOrg: boolean;
  hasCluster: boolean;
  isOrgManager: boolean;
  hasSystemRole: boolean;
}

const ALLOWED: Record<JumpNeeds, (r: JumpRights) => boolean> = {
  nothing: () => true,
  org: (r) => r.hasOrg,
  cluster: (r) => r.hasCluster,
  orgManager: (r) => r.isOrgManager,
  systemRole: (r) => r.hasSystemRole,
};

/** The jumps this user may follow, in table order. */
export const jumpsFor = (rights: JumpRights) => JUMPS.filter((j) => ALLOWED[j.needs](rights));

export const SHORTCUT_TEXTS = {
  title: 'Keyboard shortcuts',
  prefix: 'g',
  then: 'then',
  goTo: (label: string) => `Go to ${label}`,
  search: 'Focus the search field of the page',
  help: 'Show this list',
  searchKey: '/',
  helpKey: '?',
  ignored: 'Shortcuts are ignored while you type in a field.',
};

/** How long after `g` the letter may follow; later, the `g` is forgotten. */
export const JUMP_WINDOW_MS = 1500;

/** Marks a page's own search field as the one `/` focuses (spread onto the input). */
export const PAGE_SEARCH_PROPS = { 'data-page-search': true } as const;
export const PAGE_SEARCH_SELECTOR = 'main [data-page-search]';

export type ShortcutAction = { kind: 'go'; path: string } | { kind: 'search' } | { kind: 'help' };

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
  timeStamp: number;
}

/**
 * Keys typed into a field are text, never shortcuts; keys inside a dialog or drawer belong to it
 * (a jump would leave it open over another page).
 */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  return (
    el.isContentEditable ||
    el.closest(
      'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"]',
    ) !== null
  );
}

/**
 * Reads key presses one at a time and says which shortcut, if any, they complete. Keeps the
 * pending `g` between calls; `jumps` are the ones the user may follow.
 */
export function createShortcutReader(jumps: () => Jump[]) {
  let gAt: number | null = null;
  return (e: KeyPress): ShortcutAction | null => {
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) {
      gAt = null;
      return null;
    }
    const pending = gAt !== null && e.timeStamp - gAt <= JUMP_WINDOW_MS;
    gAt = null;
    if (pending) {
      const jump = jumps().find((j) => j.letter === e.key);
      if (jump) return { kind: 'go', path: jump.path };
    }
    if (e.key === SHORTCUT_TEXTS.prefix && !pending) {
      gAt = e.timeStamp;
      return null;
    }
    if (e.key === SHORTCUT_TEXTS.searchKey) return { kind: 'search' };
    if (e.key === SHORTCUT_TEXTS.helpKey) return { kind: 'help' };
    return null;
  };
}
