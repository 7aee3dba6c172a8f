import { storageUri } from '@orrery/contract';
import { allows, type Grant } from '../../../auth/permissions.js';
import type { BlobBackend } from '../../../blob/backend.js';
import { HttpError, notFound } from '../../../http/errors.js';
import { segmentsOf } from '../../storage/paths.js';
import type { FlowPlace } from '../store.js';

/** The flow format's own limit on a config file (contract ConfigFileCreate). */
const MAX_BATCH_BYTES = 1024 * 1024;

export type BatchSource = { content: string } | { file: string };

/**
 * The project path a `file` names: `storage://CLUSTER/ORG/PROJECT/path`, `storage:path` or a
 * bare `path`, both relative to the flow's project.
 */
function storagePathOf(place: FlowPlace, file: string) {
  if (file.startsWith('storage://')) {
    const [cluster, org, project, ...rest] = segmentsOf(file.slice('storage://'.length), false);
    if (!cluster || !org || !project || rest.length === 0) {
      throw new HttpError('bad_request', `Not a file URI: ${file}`);
    }
    return { cluster, org, project, rest };
  }
  const rest = segmentsOf(file.replace(/^storage:/, ''), false);
  if (rest.length === 0) throw new HttpError('bad_request', `Not a file: ${file}`);
  return { cluster: place.cluster, org: place.org, project: place.project, rest };
}

/**
 * The batch file's text: pasted, or read from the project's storage with the caller's own
 * permission on its `storage://` URI (a file they may not read is as missing as an absent one).
 */
export async function readBatch(
  backend: BlobBackend,
  grants: Grant[],
  place: FlowPlace,
  source: BatchSource,
): Promise<string> {
  if ('content' in source) return source.content;
  const p = storagePathOf(place, source.file);
  if (!allows(grants, storageUri(p.cluster, p.org, p.project, p.rest), 'read')) {
    throw notFound(`File not found: ${source.file}`);
  }
  const key = [p.cluster, p.org, p.project, ...p.rest];
  const entry = await backend.stat(key, { follow: true }).catch(() => null);
  if (!entry) throw notFound(`File not found: ${source.file}`);
  if (entry.type !== 'FILE') throw new HttpError('bad_request', `Not a file: ${source.file}`);
  if (entry.size > MAX_BATCH_BYTES) {
    throw new HttpError('bad_request', `The batch file is larger than 1 MiB: ${source.file}`);
  }
  const chunks: Buffer[] = [];
  for await (const c of await backend.read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The batch's name: as given, else the file's name without `.yml`/`.yaml`, else the flow's id. */
export function batchNameOf(source: BatchSource, given: string | undefined, flowId: string | null) {
  if (given) return given;
  if ('file' in source) {
    const base = source.file.split('/').filter(Boolean).pop() ?? '';
    const name = base.replace(/\.ya?ml$/, '');
    if (name) return name;
  }
  return flowId ?? 'batch';
}
