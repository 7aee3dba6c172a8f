import type { FastifyBaseLogger } from 'fastify';
import { LATEST_VERSION, isFinalJobStatus, type JobStatus } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import type { Grant } from '../../auth/permissions.js';
import { HttpError, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { loadClusters } from '../clusters/store.js';
import { presetGpu } from '../jobs/resources.js';
import type { JobsService } from '../jobs/service.js';
import type { JobRow } from '../jobs/store.js';
import { createSecret } from '../secrets/service.js';
import { secretByKey } from '../secrets/store.js';
import type { Catalogue } from './catalogue.js';
import { InputErrors, inputError } from './errors.js';
import { hasHint, propertiesOf, validateInput } from './input-schema.js';
import { resolveRefs } from './integrations.js';
import { presetNameOf } from './job-body.js';
import { endpointOf, siblingEnvOf } from './outputs.js';
import type { AppEndpoint, AppPreset, InstanceContext, OutputContext } from './runner.js';
import {
  addEvent,
  addRevision,
  deleteInstance,
  eventsOf,
  insertInstance,
  instanceById,
  instanceTag,
  jobsOfInstance,
  jobsOfRevision,
  listInstances,
  namesInUse,
  placeKey,
  placeOfRow,
  replaceLinks,
  revision,
  revisionsOf,
  revisionTag,
  roleTag,
  setRevisionHealth,
  updateInstance,
  usersOf,
  type InstanceRow,
  type Place,
} from './store.js';
import type { TemplateFiles } from './template-files.js';

/** The smallest preset the fallback rule takes. */
const FALLBACK_MIN_CPU = 0.5;
const FALLBACK_MIN_MEMORY = 1e9;

/** The preset an app gets when none is chosen: the smallest with half a CPU and 1 GB. */
export const fallbackPreset = <P extends { cpu: number; memory: number }>(presets: P[]) =>
  [...presets]
    .sort((a, b) => a.cpu - b.cpu || a.memory - b.memory)
    .find((p) => p.cpu >= FALLBACK_MIN_CPU && p.memory >= FALLBACK_MIN_MEMORY);

/** A name for the instance's home and host name: the display name as a slug, made unique. */
function slugOf(text: string) {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s || 'app';
}

export interface AppsDeps {
  /** Seals the project secrets a plan asks for. */
  sealKey: Buffer;
  /** Makes a storage folder, by key `[cluster, org, project, ...path]` (the persistent home). */
  makeDir(key: string[]): Promise<void>;
  log: FastifyBaseLogger;
}

export interface Caller {
  principal: Principal;
  grants: Grant[];
}

/**
 * The apps service (docs/apps.md): installs, configures, rolls back and uninstalls
 * instances; each revision's jobs go through the jobs service as the caller, so every admission
 * rule applies. States are followed by `InstanceWatcher`.
 */
export class AppsService {
  constructor(
    private readonly ctx: AppContext,
    readonly catalogue: Catalogue,
    readonly jobs: JobsService,
    private readonly deps: AppsDeps,
  ) {}

  private get log() {
    return this.deps.log;
  }

  get db() {
    return this.ctx.db;
  }

  get runtime() {
    return this.jobs.driver.name as InstanceContext['runtime'];
  }

  // What the routes read, each from the store.
  instance = (id: string) => instanceById(this.ctx.db, id);
  instances = (p: Place, q: Parameters<typeof listInstances>[2]) =>
    listInstances(this.ctx.db, p, q);
  revision = (id: string, n: number) => revision(this.ctx.db, id, n);
  revisions = (id: string) => revisionsOf(this.ctx.db, id);
  events = (id: string, page: number, size: number) => eventsOf(this.ctx.db, id, page, size);
  /** The jobs of every revision of an instance. */
  jobsOf = (id: string) => jobsOfInstance(this.ctx.db, id);

  templateOf(row: Pick<InstanceRow, 'templateName' | 'templateVersion'>) {
    const t = this.catalogue.find(row.templateName, row.templateVersion);
    if (!t)
      throw notFound(
        `App template ${row.templateName} ${row.templateVersion} is no longer installed`,
      );
    return t;
  }

  /** The preset an instance runs on: the chosen one if the cluster has it, else the smallest fit. */
  private async presetFor(cluster: string, chosen: string | undefined): Promise<AppPreset> {
    const [c] = await loadClusters(this.ctx.clusterCatalog, [cluster]);
    const presets = c?.presets ?? [];
    const found = presets.find((p) => p.name === chosen) ?? fallbackPreset(presets);
    if (!found) throw inputError(['preset'], 'No preset name was found for the app in the cluster');
    return { name: found.name, cpu: found.cpu, memoryBytes: found.memory, gpu: presetGpu(found) };
  }

  /**
   * The input as the runner plans from it: preset fallback, integrations resolved, defaults
   * filled, validated. Errors name the field.
   */
  private async prepare(t: TemplateFiles, place: Place, given: Record<string, unknown>) {
    const input = structuredClone(given);
    const props = propertiesOf(t.input);
    const preset = await this.presetFor(place.cluster, presetNameOf(input));
    if (props.preset) input.preset = { ...(input.preset as object), name: preset.name };
    const { resolved, links, errors } = await resolveRefs(
      t.input,
      input,
      placeKey(place),
      async (id) => {
        const row = await instanceById(this.ctx.db, id);
        if (!row || row.state === 'uninstalled') return null;
        return { id, place: placeKey(placeOfRow(row)), outputs: () => this.outputs(row) };
      },
    );
    if (errors.length) throw new InputErrors(errors);
    const invalid = validateInput(t.input, resolved);
    if (invalid.length) throw new InputErrors(invalid);
    return { resolved, links, preset };
  }

  private contextOf(row: InstanceRow, preset: AppPreset): InstanceContext {
    return {
      instanceId: row.id,
      name: row.name,
      cluster: row.clusterName,
      org: row.orgName,
      project: row.projectName,
      creator: row.creator,
      runtime: this.runtime,
      preset,
      home: homeOf(row),
      publicUrl: this.ctx.config.publicUrl,
      ingressDomain: this.ctx.config.ingressDomain,
    };
  }

  /** Plans the revision's jobs and submits each as the caller; a refusal ends the revision. */
  private async start(
    row: InstanceRow,
    t: TemplateFiles,
    n: number,
    resolved: Record<string, unknown>,
    preset: AppPreset,
    caller: Caller,
  ) {
    const ctx = this.contextOf(row, preset);
    const runner = this.catalogue.runnerOf(t);
    const plan = await runner.plan(resolved, ctx);
    // The home exists before any job starts, whether or not a job mounts it.
    await this.deps.makeDir([row.clusterName, row.orgName, row.projectName, ...homePath(row)]);
    await setRevisionHealth(this.ctx.db, row.id, n, plan.health ?? null);
    await this.ensureSecrets(placeOfRow(row), plan.secrets ?? {}, caller.principal);
    const ids: string[] = [];
    const byRole = new Map<string, JobRow>();
    const reach = new Map<string, { host: string; port: number }>();
    for (const job of plan.jobs) {
      const created = await this.jobs.create(caller.principal, caller.grants, {
        kind: 'preset',
        // Every job with an HTTP port of an interactive app is what the user opens.
        interactive: job.body.http ? runner.interactive : undefined,
        body: {
          ...job.body,
          env: {
            ...job.body.env,
            ...siblingEnvOf(job, byRole, this.ctx.config, reach),
          },
          cluster_name: row.clusterName,
          org_name: row.orgName,
          project_name: row.projectName,
          tags: [...job.body.tags, instanceTag(row.id), revisionTag(n), roleTag(job.role)],
        },
        ownedVolumes: job.ownedVolumes,
      });
      ids.push(created.id);
      byRole.set(job.role, created);
      // Its relay, for the jobs created after it (docker opens it before the job starts).
      const r = job.body.http ? await this.jobs.driver.reachFromJobs?.(created.id) : null;
      if (r) reach.set(job.role, r);
    }
    return ids;
  }

  private async ensureSecrets(place: Place, secrets: Record<string, string>, who: Principal) {
    for (const [key, value] of Object.entries(secrets)) {
      if (await secretByKey(this.ctx.db, place, key)) continue;
      await createSecret(this.ctx.db, this.deps.sealKey, place, who, {
        key,
        valueBase64: Buffer.from(value).toString('base64'),
      });
    }
  }

  async install(
    caller: Caller,
    place: Place,
    body: {
      template_name: string;
      template_version: string;
      input: Record<string, unknown>;
      display_name?: string;
    },
  ) {
    const t = this.catalogue.find(body.template_name, body.template_version ?? LATEST_VERSION);
    if (!t) {
      const known = this.catalogue.versionsOf(body.template_name).length > 0;
      throw inputError(
        [known ? 'template_version' : 'template_name'],
        known
          ? `No version ${body.template_version} of app template ${body.template_name}`
          : `No app template named ${body.template_name}`,
      );
    }
    const why = this.catalogue.unavailable(t);
    if (why) throw new HttpError('bad_request', why);
    const { resolved, links, preset } = await this.prepare(t, place, body.input);
    const displayName = body.display_name?.trim() || t.manifest.title;
    const base = slugOf(body.display_name?.trim() || t.manifest.name);
    let row: InstanceRow | undefined;
    // Two installs of the same name at once: the one that loses the unique index picks again.
    for (let attempt = 0; !row; attempt++) {
      const taken = await namesInUse(this.ctx.db, place);
      let name = base;
      for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
      try {
        row = await insertInstance(
          this.ctx.db,
          {
            clusterName: place.cluster,
            orgName: place.org,
            projectName: place.project,
            name,
            displayName,
            templateName: t.manifest.name,
            templateVersion: t.manifest.version,
            state: 'queued',
            creatorId: caller.principal.id,
            creator: caller.principal.username,
            presetName: preset.name,
            step: 'waiting_for_capacity',
            stepSince: new Date(),
          },
          {
            templateVersion: t.manifest.version,
            input: body.input,
            resolved,
            creator: caller.principal.username,
            comment: null,
          },
        );
      } catch (e) {
        if (attempt >= 4 || !isUniqueViolation(e)) throw e;
      }
    }
    await replaceLinks(this.ctx.db, row.id, links);
    try {
      const jobIds = await this.start(row, t, 1, resolved, preset, caller);
      return { row, jobIds };
    } catch (e) {
      // Refused by admission (credits, quota, a volume): nothing was installed.
      await this.killAll(row.id);
      await deleteInstance(this.ctx.db, row.id);
      throw e;
    }
  }

  /** Only `x-is-configurable` fields may change; the new input runs as a new revision. */
  async configure(
    caller: Caller,
    row: InstanceRow,
    body: { display_name?: string; input?: Record<string, unknown>; comment?: string },
  ) {
    if (body.display_name !== undefined) {
      row = (await updateInstance(this.ctx.db, row.id, {
        displayName: body.display_name.trim() || row.displayName,
      }))!;
    }
    if (body.input === undefined) return row;
    const t = this.templateOf(row);
    const current = (await revision(this.ctx.db, row.id, row.revision))!;
    const props = propertiesOf(t.input);
    // Unchanged means as given at install, or as it ran (with the schema's defaults filled in):
    // the CLI sends back the whole input, defaults included.
    const same = (k: string) =>
      [current.input[k], current.resolved[k]].some(
        (v) => JSON.stringify(v) === JSON.stringify(body.input![k]),
      );
    const refused = Object.keys(body.input)
      .filter((k) => !same(k))
      .filter((k) => !props[k] || !hasHint(t.input, props[k], 'x-is-configurable', true))
      .map((k) => ({ path: [k], message: 'This field cannot be changed after install' }));
    if (refused.length) throw new InputErrors(refused);
    return this.replace(caller, row, t, { ...current.input, ...body.input }, body.comment ?? null);
  }

  async rollback(caller: Caller, row: InstanceRow, n: number, comment: string | null) {
    const target = await revision(this.ctx.db, row.id, n);
    if (!target) throw notFound(`No revision ${n} of this app`);
    const t = this.catalogue.find(row.templateName, target.templateVersion);
    if (!t)
      throw notFound(
        `App template ${row.templateName} ${target.templateVersion} is no longer installed`,
      );
    return this.replace(caller, row, t, target.input, comment ?? `Rollback to revision ${n}`);
  }

  /** A new revision: its jobs replace the current ones. */
  private async replace(
    caller: Caller,
    row: InstanceRow,
    t: TemplateFiles,
    input: Record<string, unknown>,
    comment: string | null,
  ) {
    if (row.state === 'uninstalling')
      throw new HttpError('conflict', 'The app is being uninstalled');
    const place = placeOfRow(row);
    const { resolved, links, preset } = await this.prepare(t, place, input);
    const n = row.revision + 1;
    const previous = row.revision;
    // The new revision first, then the old jobs go: the instance is never seen at rest with its
    // jobs killed (the watcher would call it errored, an open log would end there).
    await addRevision(this.ctx.db, row.id, n, {
      templateVersion: t.manifest.version,
      input,
      resolved,
      creator: caller.principal.username,
      comment,
    });
    await replaceLinks(this.ctx.db, row.id, links);
    const updated = (await updateInstance(this.ctx.db, row.id, {
      state: 'queued',
      presetName: preset.name,
      step: 'waiting_for_capacity',
      stepSince: new Date(),
      stepMessage: null,
      idleStoppedAt: null,
      lastActivityAt: null,
    }))!;
    await this.killRevision(row.id, previous);
    await addEvent(this.ctx.db, row.id, {
      state: 'queued',
      reason: 'Configured',
      message: `Revision ${n}${comment ? `: ${comment}` : ''}`,
    });
    await this.start(updated, t, n, resolved, preset, caller);
    return updated;
  }

  /** Uninstall: the jobs are stopped; `force` does not wait for them to end. */
  async uninstall(row: InstanceRow, force: boolean) {
    if (row.state === 'uninstalled') return row;
    const users = (await usersOf(this.ctx.db, [row.id])).filter((u) => u.id !== row.id);
    const note = users.length
      ? `; used by ${users.map((u) => `${u.displayName} (${u.id})`).join(', ')}`
      : '';
    await updateInstance(this.ctx.db, row.id, { state: 'uninstalling', step: null });
    await addEvent(this.ctx.db, row.id, {
      state: 'uninstalling',
      reason: force ? 'ForceUninstall' : 'Uninstall',
      message: `Uninstalling${note}`,
    });
    await this.killAll(row.id);
    if (force) return this.finishUninstall(row.id);
    return (await instanceById(this.ctx.db, row.id))!;
  }

  async finishUninstall(id: string) {
    const row = await updateInstance(this.ctx.db, id, { state: 'uninstalled', step: null });
    await addEvent(this.ctx.db, id, {
      state: 'uninstalled',
      reason: 'Uninstalled',
      message: 'The app was uninstalled; its files stay in its home folder',
    });
    return row!;
  }

  async killRevision(id: string, n: number) {
    for (const j of await jobsOfRevision(this.ctx.db, id, n)) await this.jobs.kill(j);
  }

  async killAll(id: string) {
    for (const j of await jobsOfInstance(this.ctx.db, id)) {
      if (!isFinalJobStatus(j.status as JobStatus)) await this.jobs.kill(j);
    }
  }

  /** Endpoints by role of the current revision's running jobs. */
  async endpoints(row: InstanceRow, known?: JobRow[]) {
    const out: Record<string, AppEndpoint> = {};
    for (const j of known ?? (await jobsOfRevision(this.ctx.db, row.id, row.revision))) {
      const role = j.tags.find((t) => t.startsWith('app-role:'))?.slice('app-role:'.length);
      const running = j.status === 'running';
      const reach = running ? await this.jobs.driver.reachFromJobs?.(j.id) : null;
      const e = running ? endpointOf(j, this.ctx.config, reach ?? undefined) : null;
      if (role && e) out[role] = e;
    }
    return out;
  }

  async outputContext(row: InstanceRow): Promise<OutputContext> {
    const [c] = await loadClusters(this.ctx.clusterCatalog, [row.clusterName]);
    const p = c?.presets.find((x) => x.name === row.presetName);
    const preset: AppPreset = p
      ? { name: p.name, cpu: p.cpu, memoryBytes: p.memory, gpu: presetGpu(p) }
      : { name: row.presetName, cpu: 0, memoryBytes: 0 };
    return { ...this.contextOf(row, preset), endpoints: await this.endpoints(row) };
  }

  /** The output object of the instance's current revision. */
  async outputs(row: InstanceRow, n = row.revision) {
    const rev = await revision(this.ctx.db, row.id, n);
    if (!rev) throw notFound(`No revision ${n} of this app`);
    const t = this.catalogue.find(row.templateName, rev.templateVersion);
    if (!t) return {};
    try {
      return this.catalogue.runnerOf(t).outputs(rev.resolved, await this.outputContext(row));
    } catch (e) {
      this.log.warn({ err: e, instance: row.id }, 'app outputs failed');
      return {};
    }
  }
}

const homePath = (row: Pick<InstanceRow, 'templateName' | 'name'>) => [
  '.apps',
  row.templateName,
  row.name,
];

/** `storage:.apps/<template>/<instance name>`, relative to the instance's project. */
const ROLE = roleTag('');
/** The role a job of an instance plays (its `app-role:` tag); its id without one. */
export const roleOfJob = (j: { id: string; tags: string[] }) =>
  j.tags.find((t) => t.startsWith(ROLE))?.slice(ROLE.length) ?? j.id;

export const homeOf = (row: Pick<InstanceRow, 'templateName' | 'name'>) =>
  `storage:${homePath(row).join('/')}`;
