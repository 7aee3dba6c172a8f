import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConfigCluster,
  NodePool,
  NodePoolPatch,
  NodePoolStatus,
  Preset,
  PresetInput,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import type { LocalGpus } from '../../runtime/machine.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import { configClusterWire, poolWire, presetWire } from '../clusters/wire.js';
import {
  clusterPresets,
  createPreset,
  deletePreset,
  loadedCluster,
  presetOf,
  updatePreset,
} from './presets.js';
import { patchPool, poolStatuses } from './pools.js';
import { clusterByName } from './service.js';

const tags = ['admin'];
const system = { access: 'system' as const };
const ClusterParams = z.object({ cluster: z.string().min(1) });
const PresetParams = ClusterParams.extend({ preset: z.string().min(1) });
const PoolParams = ClusterParams.extend({ pool: z.string().min(1) });

/**
 * What a cluster offers jobs: its resource presets and node pools, edited by system
 * administrators (the rest of the admin area is in routes.ts; plugin.ts registers both).
 */
export const capacityRoutes =
  (ctx: AppContext, machine: LocalGpus): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    const presetsPath = '/api/v1/clusters/:cluster/orchestrator/resource_presets';
    // A change answers the whole cluster, as Apolo's config service does: the official client
    // (`apolo admin add-resource-preset` and the like) reads its answer as one.
    const clusterAfter = async (name: string) =>
      configClusterWire(await loadedCluster(ctx.clusterCatalog, name), ctx.config);

    app.get(
      presetsPath,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          response: { 200: z.array(Preset), ...errorResponses },
        },
      },
      async (request) => {
        return (await clusterPresets(db, request.params.cluster)).map(presetWire);
      },
    );

    app.get(
      `${presetsPath}/:preset`,
      {
        config: system,
        schema: { tags, params: PresetParams, response: { 200: Preset, ...errorResponses } },
      },
      async (request) => {
        const { cluster, preset } = request.params;
        return presetWire(await presetOf(db, cluster, preset));
      },
    );

    app.post(
      presetsPath,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          body: PresetInput,
          response: { 201: ConfigCluster, ...errorResponses },
        },
      },
      async (request, reply) => {
        await createPreset(db, ctx.clusterCatalog, request.params.cluster, request.body);
        return reply.status(201).send(await clusterAfter(request.params.cluster));
      },
    );

    app.put(
      `${presetsPath}/:preset`,
      {
        config: system,
        schema: {
          tags,
          params: PresetParams,
          body: PresetInput,
          response: { 200: ConfigCluster, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, preset } = request.params;
        await updatePreset(db, ctx.clusterCatalog, cluster, preset, request.body);
        return clusterAfter(cluster);
      },
    );

    app.delete(
      `${presetsPath}/:preset`,
      {
        config: system,
        schema: { tags, params: PresetParams, response: { 200: ConfigCluster, ...errorResponses } },
      },
      async (request) => {
        await deletePreset(db, ctx.clusterCatalog, request.params.cluster, request.params.preset);
        return clusterAfter(request.params.cluster);
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/node_pools`,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          response: { 200: z.array(NodePoolStatus), ...errorResponses },
        },
      },
      async (request) => {
        await clusterByName(db, request.params.cluster);
        return poolStatuses(db, request.params.cluster, machine, ctx.config.runtime);
      },
    );

    app.patch(
      `${ADMIN_API}/clusters/:cluster/node_pools/:pool`,
      {
        config: system,
        schema: {
          tags,
          params: PoolParams,
          body: NodePoolPatch,
          response: { 200: NodePool, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, pool } = request.params;
        return poolWire(await patchPool(db, ctx.clusterCatalog, cluster, pool, request.body));
      },
    );
  };
