import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { parseUri, type Action, type JobContainer, type Scheme } from '@orrery/contract';
import type { Grant } from '../../auth/permissions.js';
import { allows } from '../../auth/permissions.js';
import type { Db } from '../../db/client.js';
import type { AppContext } from '../../context.js';
import { HttpError, invalid } from '../../http/errors.js';
import type { JobMount } from '../../runtime/driver.js';
import { diskByIdOrName } from '../disks/store.js';
import { diskStorage, diskVolumePath, markDiskUsed } from '../disks/service.js';
import { readSecret } from '../secrets/service.js';
import type { ProjectPlace } from './store.js';
import type { StoredContainer } from './container.js';

/**
 * Volume and secret URIs of a job. The CLI sends full URIs (`storage://C/O/P/path`); the SDK's
 * short forms are accepted too: `storage:path` is relative to the job's project and
 * `storage:/ORG/PROJECT/path` to its cluster. Everything is stored in the full form.
 */
export function fullUri(raw: string, scheme: Scheme, p: ProjectPlace, field: string): string {
  const prefix = `${scheme}:`;
  if (!raw.startsWith(prefix)) throw invalid(field, `Must be a ${prefix} URI`);
  const rest = raw.slice(prefix.length);
  const joined = rest.startsWith('//')
    ? rest.slice(2)
    : rest.startsWith('/')
      ? `${p.cluster}${rest}`
      : `${p.cluster}/${p.org}/${p.project}/${rest}`;
  const parsed = parseUri(`${scheme}://${joined}`);
  if (!parsed || parsed.segments.length < 3) throw invalid(field, `Invalid URI ${raw}`);
  return `${scheme}://${parsed.segments.join('/')}`;
}

const segmentsOf = (uri: string) => parseUri(uri)!.segments;

/** The container with every volume and secret URI in full form. */
export function normalizeUris(c: JobContainer, p: ProjectPlace): JobContainer {
  return {
    ...c,
    volumes: c.volumes.map((v, i) => ({
      ...v,
      src_storage_uri: fullUri(v.src_storage_uri, 'storage', p, `volumes.${i}.src_storage_uri`),
    })),
    disk_volumes: c.disk_volumes.map((v, i) => ({
      ...v,
      src_disk_uri: fullUri(v.src_disk_uri, 'disk', p, `disk_volumes.${i}.src_disk_uri`),
    })),
    secret_volumes: c.secret_volumes.map((v, i) => ({
      ...v,
      src_secret_uri: fullUri(v.src_secret_uri, 'secret', p, `secret_volumes.${i}.src_secret_uri`),
    })),
    secret_env: Object.fromEntries(
      Object.entries(c.secret_env).map(([k, v]) => [k, fullUri(v, 'secret', p, `secret_env.${k}`)]),
    ),
  };
}

/** Refuses a job that mounts what its owner may not read (or write, for a writable mount). */
export function checkVolumeAccess(grants: Grant[], c: JobContainer) {
  const need = (uri: string, action: Action, field: string) => {
    if (!allows(grants, uri, action)) {
      throw new HttpError('forbidden', `No ${action} permission on ${uri}`, [
        { path: field, message: `No ${action} permission on ${uri}` },
      ]);
    }
  };
  c.volumes.forEach((v, i) =>
    need(v.src_storage_uri, v.read_only ? 'read' : 'write', `volumes.${i}.src_storage_uri`),
  );
  c.disk_volumes.forEach((v, i) =>
    need(v.src_disk_uri, v.read_only ? 'read' : 'write', `disk_volumes.${i}.src_disk_uri`),
  );
  c.secret_volumes.forEach((v, i) =>
    need(v.src_secret_uri, 'read', `secret_volumes.${i}.src_secret_uri`),
  );
  for (const [k, v] of Object.entries(c.secret_env)) need(v, 'read', `secret_env.${k}`);
}

/** Disks a job mounts, as `disk://…/ID` segments resolved to their ids (names are allowed). */
export async function diskIdsOf(db: Db, c: JobContainer) {
  const ids: string[] = [];
  for (const [i, v] of c.disk_volumes.entries()) {
    const [cluster, org, project, idOrName] = segmentsOf(v.src_disk_uri);
    const found = idOrName
      ? await diskByIdOrName(db, { cluster: cluster!, org: org!, project: project! }, idOrName)
      : null;
    if (!found) throw invalid(`disk_volumes.${i}.src_disk_uri`, `Disk ${v.src_disk_uri} not found`);
    ids.push(found.id);
  }
  return ids;
}

export interface VolumeDeps {
  ctx: Pick<AppContext, 'db' | 'config'>;
  sealKey: Buffer;
  /** Host directory of a storage path, or null when storage is not on the local filesystem. */
  storageDir(segments: string[]): string | null;
}

const secretPlace = (uri: string) => {
  const [cluster, org, project, ...key] = segmentsOf(uri);
  return { place: { cluster: cluster!, org: org!, project: project! }, key: key.join('/') };
};

async function secretValue(d: VolumeDeps, uri: string) {
  const { place, key } = secretPlace(uri);
  const s = await readSecret(d.ctx.db, d.sealKey, place, key);
  return Buffer.from(s.value, 'base64');
}

export const jobDir = (dataDir: string, id: string) => {
  const root = resolve(dataDir, 'jobs');
  const dir = resolve(root, id);
  if (!dir.startsWith(root + sep)) throw new Error(`Job path escapes the data directory: ${dir}`);
  return dir;
};

/**
 * Host paths and env of a job about to start: storage folders and disk directories to bind, and
 * each secret volume written to a 0600 file under the job's directory (mounted read-only).
 * Secret values exist only there and in the job's environment.
 */
export async function resolveMounts(d: VolumeDeps, id: string, c: StoredContainer) {
  const mounts: JobMount[] = [];
  for (const v of c.volumes) {
    const host = d.storageDir(segmentsOf(v.src_storage_uri));
    if (!host) {
      throw new HttpError(
        'unprocessable',
        'Storage volumes need the filesystem storage backend (ORRERY_S3_STORAGE_BUCKET is set)',
      );
    }
    await mkdir(host, { recursive: true });
    const owned = !v.read_only && c.owned_volumes?.includes(v.dst_path);
    mounts.push({
      hostPath: host,
      dstPath: v.dst_path,
      readOnly: v.read_only,
      ...(owned ? { owned } : {}),
      source: { kind: 'storage', path: segmentsOf(v.src_storage_uri).join('/') },
    });
  }
  const disks = await diskIdsOf(d.ctx.db, c);
  for (const [i, v] of c.disk_volumes.entries()) {
    const diskId = disks[i]!;
    mounts.push({
      hostPath: await diskVolumePath(d.ctx, diskId),
      dstPath: v.dst_path,
      readOnly: v.read_only,
      source: { kind: 'disk', id: diskId, bytes: await diskStorage(d.ctx, diskId) },
    });
    await markDiskUsed(d.ctx, diskId);
  }
  if (c.secret_volumes.length > 0) {
    const dir = join(jobDir(d.ctx.config.dataDir, id), 'secrets');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const [i, v] of c.secret_volumes.entries()) {
      const file = join(dir, String(i));
      await writeFile(file, await secretValue(d, v.src_secret_uri), { mode: 0o600 });
      await chmod(file, 0o600);
      mounts.push({
        hostPath: file,
        dstPath: v.dst_path,
        readOnly: true,
        source: { kind: 'secret' },
      });
    }
  }
  const env: Record<string, string> = { ...c.env };
  for (const [k, uri] of Object.entries(c.secret_env)) {
    env[k] = (await secretValue(d, uri)).toString('utf8');
  }
  return { mounts, env };
}
