import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CopilotModelChoice,
  CopilotModelChoices,
  CopilotModelSetting,
  isFinalAppState,
  orgUri,
  projectUri,
  type AppState,
} from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import { requireUser } from '../../../auth/principal.js';
import type { AppContext } from '../../../context.js';
import { invalid } from '../../../http/errors.js';
import { errorResponses } from '../../../http/route.js';
import { instanceById } from '../../apps/store.js';
import { LLM_TEMPLATE } from './choice.js';
import { chooseApp, chosenApp, llmAppsOf } from './store.js';

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
        const grants = await request.grants();
        const rows = await llmAppsOf(ctx.db, request.params.org, LLM_TEMPLATE);
        return {
          items: rows
            .filter((r) =>
              allows(grants, projectUri(r.clusterName, r.orgName, r.projectName), 'read'),
            )
            .map((r) => ({
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
        if (id) {
          const row = await instanceById(ctx.db, id);
          const readable =
            row &&
            row.orgName === org &&
            allows(
              await request.grants(),
              projectUri(row.clusterName, row.orgName, row.projectName),
              'read',
            );
          if (!readable) {
            throw invalid(
              'app_instance_id',
              `No app instance ${id} in organization ${org} that you can read`,
            );
          }
          if (row.templateName !== LLM_TEMPLATE) {
            throw invalid(
              'app_instance_id',
              `${row.displayName} is a ${row.templateName} app: choose an ${LLM_TEMPLATE} app`,
            );
          }
          if (isFinalAppState(row.state as AppState)) {
            throw invalid('app_instance_id', `${row.displayName} is ${row.state}`);
          }
        }
        await chooseApp(ctx.db, org, id, requireUser(request).id);
        return settingOf(request, org);
      },
    );
  };
