import type { ProjectPlace } from '@orrery/contract';
import { FORM_MESSAGES } from './texts';
import { expandUri } from './uris';

export const VOLUME_TYPES = ['storage', 'disk', 'secret'] as const;
export type VolumeType = (typeof VOLUME_TYPES)[number];
export type VolumeMode = 'ro' | 'rw';

/** A volume, as the volumes editor keeps it. */
export interface VolumeEntry {
  type: VolumeType;
  /** What the chosen resource is called (a disk's or secret's name); shown, never sent. */
  name: string;
  /** `storage:folder`, a disk URI or `secret:KEY`. */
  resource: string;
  /** Where the job sees it. */
  path: string;
  mode: VolumeMode;
}

/** New volumes are read-only. */
export const newVolume = (): VolumeEntry => ({
  type: 'storage',
  name: '',
  resource: '',
  path: '',
  mode: 'ro',
});

/** A new type clears name and resource; secrets are always read-only. */
export const withType = (v: VolumeEntry, type: VolumeType): VolumeEntry => ({
  ...v,
  type,
  name: '',
  resource: '',
  mode: type === 'secret' ? 'ro' : v.mode,
});

/** Trimmed, slashes removed, spaces to hyphens, lowercase. */
export const slugName = (text: string) =>
  text.trim().replace(/\//g, '').replace(/\s+/g, '-').toLowerCase();

export interface WireVolumes {
  volumes: { src_storage_uri: string; dst_path: string; read_only: boolean }[];
  disk_volumes: { src_disk_uri: string; dst_path: string; read_only: boolean }[];
  secret_volumes: { src_secret_uri: string; dst_path: string }[];
  /** Wire path (`disk_volumes.0`) → editor index, to put server errors on the right row. */
  origin: Record<string, number>;
  /** The warning when a half-filled volume was skipped, else null. */
  warning: string | null;
}

/**
 * Each volume becomes `dst_path`, `read_only` and a source URI in the list of
 * its type; a volume missing only its path or its resource is skipped with a warning, an empty
 * one silently.
 */
export function toWireVolumes(entries: readonly VolumeEntry[], place: ProjectPlace): WireVolumes {
  const out: WireVolumes = {
    volumes: [],
    disk_volumes: [],
    secret_volumes: [],
    origin: {},
    warning: null,
  };
  entries.forEach((v, index) => {
    const resource = v.resource.trim();
    const path = v.path.trim();
    if (!resource || !path) {
      if (resource || path) out.warning = FORM_MESSAGES.skippedVolume;
      return;
    }
    const readOnly = v.mode === 'ro';
    if (v.type === 'storage') {
      out.origin[`volumes.${out.volumes.length}`] = index;
      out.volumes.push({
        src_storage_uri: expandUri('storage', resource, place),
        dst_path: path,
        read_only: readOnly,
      });
    } else if (v.type === 'disk') {
      out.origin[`disk_volumes.${out.disk_volumes.length}`] = index;
      out.disk_volumes.push({
        src_disk_uri: expandUri('disk', resource, place),
        dst_path: path,
        read_only: readOnly,
      });
    } else {
      out.origin[`secret_volumes.${out.secret_volumes.length}`] = index;
      out.secret_volumes.push({
        src_secret_uri: expandUri('secret', resource, place),
        dst_path: path,
      });
    }
  });
  return out;
}
