import { createReadStream } from 'node:fs';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppTemplate,
  AppTemplateSummary,
  AppTemplateVersion,
  TemplateNameParams,
  TemplateScopeParams,
  TemplateVersionParams,
  projectUri,
} from '@orrery/contract';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { ASSETS_PATH, type Catalogue } from './catalogue.js';
import { fileInside } from './template-files.js';

export const APPS_V1 = '/apis/apps/v1/cluster/:cluster/org/:org/project/:project';
const BASE = `${APPS_V1}/templates`;

/** Media types of the assets a template may ship (logo, screenshots, videos). */
const ASSET_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

type ScopeParams = Partial<Record<'cluster' | 'org' | 'project', string>>;

/** The project of a v1 path; any member of it may read, others get 404 (http/access.ts). */
export const scopeUri = (r: FastifyRequest) => {
  const p = r.params as ScopeParams;
  return projectUri(p.cluster ?? '-', p.org ?? '-', p.project ?? '-');
};
export const projectRead = { access: { uri: scopeUri, action: 'read' as const } };
/** An instance is its project's: who may act on the project may act on it. */
export const instanceProject = (r: { clusterName: string; orgName: string; projectName: string }) =>
  projectUri(r.clusterName, r.orgName, r.projectName);

/** The templates of the apps API (docs/apps.md), and their shipped assets. */
export const templateRoutes =
  (catalogue: Catalogue): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      BASE,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: TemplateScopeParams,
          response: { 200: z.array(AppTemplateSummary), ...errorResponses },
        },
      },
      async () => catalogue.latest().map((t) => catalogue.summary(t)),
    );

    app.get(
      `${BASE}/tags`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: TemplateScopeParams,
          response: { 200: z.array(z.string()), ...errorResponses },
        },
      },
      async () => catalogue.tags(),
    );

    app.get(
      `${BASE}/:name`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: TemplateNameParams,
          response: { 200: z.array(AppTemplateVersion), ...errorResponses },
        },
      },
      async (request) => {
        const versions = catalogue.versionsOf(request.params.name);
        if (versions.length === 0) throw notFound(`No template named ${request.params.name}`);
        return versions.map(({ manifest: m }, i) => ({
          version: m.version,
          title: m.title,
          short_description: m.short_description,
          tags: m.tags,
          pub_date: m.pub_date,
          is_latest: i === 0,
        }));
      },
    );

    app.get(
      `${BASE}/:name/:version`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: TemplateVersionParams,
          response: { 200: AppTemplate, ...errorResponses },
        },
      },
      async (request) => {
        const { name, version } = request.params;
        const found = catalogue.find(name, version);
        if (!found) throw notFound(`No version ${version} of template ${name}`);
        return catalogue.full(found);
      },
    );

    // Logos and screenshots ship with the templates: public, like the console's own files.
    app.get(
      `${ASSETS_PATH}/:name/:version/*`,
      {
        config: { access: 'public' },
        schema: {
          tags: ['apps'],
          params: z.object({ name: z.string(), version: z.string(), '*': z.string() }),
        },
      },
      async (request, reply) => {
        const { name, version, '*': rest } = request.params;
        const t = catalogue.find(name, version);
        const file = t && fileInside(t.dir, rest);
        const named =
          t && [t.manifest.logo, ...t.manifest.assets.map((a) => a.file)].includes(rest);
        if (!file || !named) throw notFound('No such asset');
        return (
          reply
            .type(ASSET_TYPES[rest.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream')
            .header('cache-control', 'public, max-age=3600')
            // An SVG opened on its own runs no script and loads nothing.
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
            .send(createReadStream(file))
        );
      },
    );
  };
