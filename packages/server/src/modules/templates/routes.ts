import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Template,
  TemplateNameParams,
  TemplateScopeParams,
  TemplateSummary,
  TemplateVersion,
  TemplateVersionParams,
  projectUri,
} from '@orrery/contract';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { findTemplate, latestTemplates, summaryOf, versionsOf } from './catalog.js';

const BASE = '/apis/apps/v1/cluster/:cluster/org/:org/project/:project/templates';

/** Any member of the project may read its templates; others get 404 (http/access.ts). */
const projectRead = {
  access: {
    uri: (r: FastifyRequest) => {
      const p = r.params as Partial<Record<'cluster' | 'org' | 'project', string>>;
      return projectUri(p.cluster ?? '-', p.org ?? '-', p.project ?? '-');
    },
    action: 'read' as const,
  },
};

const missing = (name: string) => notFound(`No template named ${name}`);

/** The templates of the apps API (apolo-wire §12), serving Orrery's built-in templates. */
export const templateRoutes = (): FastifyPluginAsyncZod => async (app) => {
  app.get(
    BASE,
    {
      config: projectRead,
      schema: {
        tags: ['templates'],
        params: TemplateScopeParams,
        response: { 200: z.array(TemplateSummary), ...errorResponses },
      },
    },
    async () => latestTemplates().map(summaryOf),
  );

  app.get(
    `${BASE}/:name`,
    {
      config: projectRead,
      schema: {
        tags: ['templates'],
        params: TemplateNameParams,
        response: { 200: z.array(TemplateVersion), ...errorResponses },
      },
    },
    async (request) => {
      const versions = versionsOf(request.params.name);
      if (versions.length === 0) throw missing(request.params.name);
      return versions.map(({ version, title, short_description, tags }) => ({
        version,
        title,
        short_description,
        tags,
      }));
    },
  );

  app.get(
    `${BASE}/:name/:version`,
    {
      config: projectRead,
      schema: {
        tags: ['templates'],
        params: TemplateVersionParams,
        response: { 200: Template, ...errorResponses },
      },
    },
    async (request) => {
      const { name, version } = request.params;
      const found = findTemplate(name, version);
      if (!found) throw notFound(`No version ${version} of template ${name}`);
      return found;
    },
  );
};
