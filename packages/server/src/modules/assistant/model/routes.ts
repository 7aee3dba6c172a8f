import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CopilotModelChoice,
  CopilotModelChoices,
  CopilotModelSetting,
  orgUri,
} from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import { requireUser } from '../../../auth/principal.js';
import type { AppContext } from '../../../context.js';
import { errorResponses } from '../../../http/route.js';
import { chooseModelApp, chosenApp, modelChoices } from './service.js';

const PATH = '/api/v1/copilot/orgs/:org/model';
const Params = z.object({ org: z.string().min(1).max(100) });
const orgOf = (r: FastifyRequest) => orgUri((r.params as { org: string }).org);

/**
 * The organization's model (docs/assistant.md, With a model). Members read which kind of
 * engine answers; managers also see and change the chosen app. The app must be an llm-inference
 * instance of this organization in a project the manager can read: anything else is the same
 * 400, so that no other organization's instance is confirmed to exist.
 */
export const modelSettingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const settingOf = async (request: FastifyRequest, org: string) => {
      const canManage = allows(await request.grants(), orgUri(org), 'manage');
      const chosen = await chosenApp(ctx.db, org);
      return {
        source: chosen ? 'app' : ctx.config.assistantLlm ? 'endpoint' : 'embedded',
        app_instance_id: canManage ? chosen : null,
        can_manage: canManage,
      } satisfies CopilotModelSetting;
    };

    app.get(
      PATH,
      {
        config: { access: { uri: orgOf, action: 'read' } },
        schema: {
          tags: ['copilot'],
          params: Params,
          response: { 200: CopilotModelSetting, ...errorResponses },
        },
      },
      async (request) => settingOf(request, request.params.org),
    );

    app.get(
      `${PATH}/choices`,
      {
        config: { access: { uri: orgOf, action: 'manage' } },
        schema: {
          tags: ['copilot'],
          params: Params,
          response: { 200: CopilotModelChoices, ...errorResponses },
        },
      },
      async (request) => {
        const rows = await modelChoices(ctx.db, request.params.org, await request.grants());
        return {
          items: rows.map((r) => ({
            id: r.id,
            display_name: r.displayName,
            cluster_name: r.clusterName,
            project_name: r.projectName,
            state: r.state,
          })),
        };
      },
    );

    app.put(
      PATH,
      {
        config: { access: { uri: orgOf, action: 'manage' } },
        schema: {
          tags: ['copilot'],
          params: Params,
          body: CopilotModelChoice,
          response: { 200: CopilotModelSetting, ...errorResponses },
        },
      },
      async (request) => {
        const { org } = request.params;
        const id = request.body.app_instance_id;
        const grants = await request.grants();
        await chooseModelApp(ctx.db, org, id, grants, requireUser(request).id);
        return settingOf(request, org);
      },
    );
  };
