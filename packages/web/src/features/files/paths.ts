import { storageUri, type ProjectPlace } from '@orrery/contract';
import type { FileStatus } from '../../api/storage';
import { FILE_TEXTS } from './texts';

/** `a/b/` → `['a', 'b']`; empty and `.`/`..` segments are dropped. */
export const splitPath = (text: string | null | undefined): string[] =>
  (text ?? '').split('/').filter((s) => s !== '' && s !== '.' && s !== '..');

export const joinPath = (path: string[]) => path.join('/');

/** The value forms store: `storage:a/b`, project-relative; the root is `storage:`. */
export const storageValue = (path: string[]) => `storage:${joinPath(path)}`;

/** `storage://CLUSTER/ORG/PROJECT/a/b`, the URI the permission engine and jobs use. */
export const fullUri = (p: ProjectPlace, path: string[]) =>
  storageUri(p.clusterName, p.orgName, p.projectName, path);

export const isFolder = (f: Pick<FileStatus, 'type'>) => f.type === 'DIRECTORY';

/** `.txt` of `notes.txt`; null for `README`, `.bashrc` and folders. */
export function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot).toLowerCase() : null;
}

export type PreviewKind = 'image' | 'audio' | 'video' | 'text' | null;

const KINDS: Record<Exclude<PreviewKind, null>, string[]> = {
  // SVG is left out: the server always sends it as a download.
  image: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.avif', '.ico'],
  audio: ['.mp3', '.wav', '.ogg', '.oga', '.flac', '.m4a', '.aac', '.opus'],
  video: ['.mp4', '.webm', '.ogv', '.mov', '.m4v'],
  text: [
    '.txt',
    '.md',
    '.csv',
    '.tsv',
    '.json',
    '.jsonl',
    '.ndjson',
    '.yaml',
    '.yml',
    '.toml',
    '.ini',
    '.cfg',
    '.conf',
    '.log',
    '.py',
    '.ipynb',
    '.js',
    '.ts',
    '.sh',
    '.r',
    '.sql',
    '.xml',
    '.html',
    '.css',
    '.env',
    '.rst',
    '.tex',
    '.go',
    '.rs',
    '.java',
    '.c',
    '.h',
    '.cpp',
  ],
};

export function previewKind(name: string): PreviewKind {
  const ext = extensionOf(name);
  if (!ext) return null;
  for (const [kind, exts] of Object.entries(KINDS)) {
    if (exts.includes(ext)) return kind as PreviewKind;
  }
  return null;
}

/** A new name for a file or folder: required, one segment (min 1). */
export function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return FILE_TEXTS.errors.required;
  if (trimmed.includes('/')) return FILE_TEXTS.errors.slash;
  if (trimmed === '.' || trimmed === '..') return FILE_TEXTS.errors.dots;
  return null;
}

/** Folders first, then by name; the search keeps names containing the text, ignoring case. */
export function filterEntries(entries: FileStatus[], search: string): FileStatus[] {
  const needle = search.trim().toLowerCase();
  return entries
    .filter((e) => !needle || e.path.toLowerCase().includes(needle))
    .sort(
      (a, b) =>
        Number(isFolder(b)) - Number(isFolder(a)) ||
        a.path.localeCompare(b.path, undefined, { numeric: true }),
    );
}

export { formatUnixSeconds as formatModified } from '../../ui/dates';
