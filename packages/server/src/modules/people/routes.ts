import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ClusterUser,
  ClusterUserAdd,
  Credits,
  ClusterUserUpdate,
  OrgUser,
  OrgUserAdd,
  OrgUserUpdate,
  ProjectUser,
  ProjectUserAdd,
  ProjectUserUpdate,
  WithUserInfo,
  orgUri,
  projectUri,
  type Action,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { invalid, notFound } from '../../http/errors.js';
import { authorize } from '../../http/access.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import {
  addOrgUser,
  assertClusterOfOrg,
  clusterUserOf,
  clusterUsers,
  orgUsers,
  projectUsers,
  assertClusterPeopleManager,
  removeClusterUser,
  removeOrgUser,
  setClusterUser,
  setOrgUserCredits,
  setProjectUser,
  updateOrgUser,
} from './service.js';
import { clusterUserWire, orgUserWire, projectUserWire } from './wire.js';
import { projectIdAt } from '../projects/service.js';

const OrgParams = z.object({ org: z.string().min(1) });
const OrgUserParams = OrgParams.extend({ user: z.string().min(1) });
const ClusterParams = OrgParams.extend({ cluster: z.string().min(1) });
const ClusterUserParams = ClusterParams.extend({ user: z.string().min(1) });
const ProjectParams = ClusterParams.extend({ project: z.string().min(1) });
const ProjectUserParams = ProjectParams.extend({ user: z.string().min(1) });

type Params = Partial<Record<'org' | 'cluster' | 'project', string>>;
/**
 * Changing who belongs where is a person's: a project token that added someone (its holder's own
 * account, say) would leave access behind that outlives its revocation.
 */
const people = (action: Action) => (action === 'read' ? {} : { people: true as const });
const onOrg = (action: Action) => ({
  access: {
    uri: (r: FastifyRequest) => orgUri((r.params as Params).org ?? '-'),
    action,
    ...people(action),
  },
});
const onProject = (action: Action) => ({
  access: {
    uri: (r: FastifyRequest) => {
      const p = r.params as Params;
      return projectUri(p.cluster ?? '-', p.org ?? '-', p.project ?? '-');
    },
    action,
    ...people(action),
  },
});
const tags = ['people'];

/**
 * People of organizations, clusters and projects on the admin API's paths, so
 * that `apolo admin` and the console share them. Lists answer plain arrays, as that API does.
 */
export const peopleRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;
    const orgUser = async (org: string, username: string) => {
      const row = (await orgUsers(db, org)).find((u) => u.username === username);
      if (!row) throw notFound(`User ${username} is not a member of ${org} organization`);
      return orgUserWire(org, row, true);
    };

    app.get(
      `${ADMIN_API}/orgs/:org/users`,
      {
        config: onOrg('read'),
        schema: {
          tags,
          params: OrgParams,
          querystring: WithUserInfo,
          response: { 200: z.array(OrgUser), ...errorResponses },
        },
      },
      async (request) => {
        const { org } = request.params;
        return (await orgUsers(db, org)).map((u) =>
          orgUserWire(org, u, request.query.with_user_info),
        );
      },
    );

    app.get(
      `${ADMIN_API}/orgs/:org/users/:user`,
      {
        config: onOrg('read'),
        schema: { tags, params: OrgUserParams, response: { 200: OrgUser, ...errorResponses } },
      },
      async (request) => orgUser(request.params.org, request.params.user),
    );

    app.post(
      `${ADMIN_API}/orgs/:org/users`,
      {
        config: onOrg('manage'),
        schema: {
          tags,
          params: OrgParams,
          body: OrgUserAdd,
          response: { 201: OrgUser, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { org } = request.params;
        const b = request.body;
        await addOrgUser(db, requireUser(request), org, {
          username: b.user_name,
          role: b.role,
          credits: b.balance?.credits ?? null,
        });
        return reply.status(201).send(await orgUser(org, b.user_name));
      },
    );

    app.put(
      `${ADMIN_API}/orgs/:org/users/:user`,
      {
        config: onOrg('manage'),
        schema: {
          tags,
          params: OrgUserParams,
          body: OrgUserUpdate,
          response: { 200: OrgUser, ...errorResponses },
        },
      },
      async (request) => {
        const { org, user } = request.params;
        await updateOrgUser(db, requireUser(request), org, user, {
          role: request.body.role,
          credits: request.body.balance?.credits,
        });
        return orgUser(org, user);
      },
    );

    // The official CLI's `admin set-user-credits` and `add-user-credits`.
    app.patch(
      `${ADMIN_API}/orgs/:org/users/:user/balance`,
      {
        config: onOrg('manage'),
        schema: {
          tags,
          params: OrgUserParams,
          querystring: WithUserInfo,
          body: z.union([
            z.object({ credits: Credits }).strict(),
            z.object({ additional_credits: z.string().regex(/^-?\d+(\.\d+)?$/) }),
          ]),
          response: { 200: OrgUser, ...errorResponses },
        },
      },
      async (request) => {
        const { org, user } = request.params;
        const b = request.body;
        await setOrgUserCredits(
          db,
          org,
          user,
          'credits' in b ? { credits: b.credits } : { add: b.additional_credits },
        );
        return orgUser(org, user);
      },
    );

    app.delete(
      `${ADMIN_API}/orgs/:org/users/:user`,
      {
        config: onOrg('manage'),
        schema: { tags, params: OrgUserParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        await removeOrgUser(db, requireUser(request), request.params.org, request.params.user);
        return reply.status(204).send(null);
      },
    );

    const clusterUser = async (cluster: string, org: string, username: string) => {
      const row = (await clusterUsers(db, cluster, org)).find((u) => u.username === username);
      if (!row) throw notFound(`User ${username} is not in ${cluster} cluster`);
      return clusterUserWire(cluster, org, row, true);
    };

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/users`,
      {
        config: onOrg('read'),
        schema: {
          tags,
          params: ClusterParams,
          querystring: WithUserInfo,
          response: { 200: z.array(ClusterUser), ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org } = request.params;
        await assertClusterOfOrg(db, cluster, org);
        return (await clusterUsers(db, cluster, org)).map((u) =>
          clusterUserWire(cluster, org, u, request.query.with_user_info),
        );
      },
    );

    // The official CLI's `admin add-cluster-user` posts here, naming the organization in the body.
    app.post(
      `${ADMIN_API}/clusters/:cluster/users`,
      {
        config: { access: 'user' as const },
        schema: {
          tags,
          params: z.object({ cluster: z.string().min(1) }),
          body: ClusterUserAdd.extend({ org_name: z.string().min(1).optional() }),
          response: { 201: ClusterUser, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { cluster } = request.params;
        const b = request.body;
        if (!b.org_name)
          throw invalid(
            'org_name',
            'org_name is required: the cluster users belong to an organization',
          );
        await authorize(request, orgUri(b.org_name), 'read');
        await assertClusterOfOrg(db, cluster, b.org_name);
        await assertClusterPeopleManager(request, cluster, b.org_name);
        await setClusterUser(
          db,
          cluster,
          b.org_name,
          { username: b.user_name, role: b.role },
          'add',
        );
        return reply.status(201).send(await clusterUser(cluster, b.org_name, b.user_name));
      },
    );

    app.post(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/users`,
      {
        config: onOrg('read'),
        schema: {
          tags,
          params: ClusterParams,
          body: ClusterUserAdd,
          response: { 201: ClusterUser, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { cluster, org } = request.params;
        await assertClusterOfOrg(db, cluster, org);
        await assertClusterPeopleManager(request, cluster, org);
        const b = request.body;
        await setClusterUser(db, cluster, org, { username: b.user_name, role: b.role }, 'add');
        return reply.status(201).send(await clusterUser(cluster, org, b.user_name));
      },
    );

    // The official CLI's `config show` reads the caller's own record here (its quota and credits):
    // anyone reads their own, also a project member outside the organization; others need read
    // on the organization.
    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/users/:user`,
      {
        config: { access: 'user-or-token' as const },
        schema: {
          tags,
          params: ClusterUserParams,
          querystring: WithUserInfo,
          response: { 200: ClusterUser, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org, user } = request.params;
        const caller = requireUser(request);
        const missing = notFound(`User ${user} is not in ${cluster} cluster`);
        const self = caller.username === user;
        if (!self) await authorize(request, orgUri(org), 'read');
        const withInfo = request.query.with_user_info;
        const m = self ? await (await request.accessSnapshot()).memberships(caller) : null;
        const inProject = !!m?.projects.some((p) => p.cluster === cluster && p.org === org);
        if (self && !inProject && !m!.orgs.some((o) => o.name === org)) throw missing;
        await assertClusterOfOrg(db, cluster, org);
        // A member of an organization on the cluster, or of one of its projects there, works
        // there as a user without a cluster membership of their own (docs/people.md): the same
        // role the config gives them.
        const row = await clusterUserOf(db, cluster, org, user, inProject);
        if (!row) throw missing;
        return clusterUserWire(cluster, org, row, withInfo);
      },
    );

    app.put(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/users/:user`,
      {
        config: onOrg('read'),
        schema: {
          tags,
          params: ClusterUserParams,
          body: ClusterUserUpdate,
          response: { 200: ClusterUser, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org, user } = request.params;
        await assertClusterOfOrg(db, cluster, org);
        await assertClusterPeopleManager(request, cluster, org);
        await setClusterUser(
          db,
          cluster,
          org,
          { username: user, role: request.body.role },
          'update',
        );
        return clusterUser(cluster, org, user);
      },
    );

    app.delete(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/users/:user`,
      {
        config: onOrg('read'),
        schema: { tags, params: ClusterUserParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        const { cluster, org, user } = request.params;
        await assertClusterOfOrg(db, cluster, org);
        await assertClusterPeopleManager(request, cluster, org);
        await removeClusterUser(db, cluster, org, user);
        return reply.status(204).send(null);
      },
    );

    const projectOf = (p: { cluster: string; org: string; project: string }) => projectIdAt(db, p);
    const projectUser = async (
      place: { cluster: string; org: string; project: string },
      username: string,
    ) => {
      const row = (await projectUsers(db, await projectOf(place))).find(
        (u) => u.username === username,
      );
      if (!row) throw notFound(`User ${username} is not in this project`);
      return projectUserWire(place, row, true);
    };

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects/:project/users`,
      {
        config: onProject('read'),
        schema: {
          tags,
          params: ProjectParams,
          querystring: WithUserInfo,
          response: { 200: z.array(ProjectUser), ...errorResponses },
        },
      },
      async (request) => {
        const place = request.params;
        return (await projectUsers(db, await projectOf(place))).map((u) =>
          projectUserWire(place, u, request.query.with_user_info),
        );
      },
    );

    app.post(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects/:project/users`,
      {
        config: onProject('manage'),
        schema: {
          tags,
          params: ProjectParams,
          body: ProjectUserAdd,
          response: { 201: ProjectUser, ...errorResponses },
        },
      },
      async (request, reply) => {
        const place = request.params;
        const b = request.body;
        await setProjectUser(
          db,
          requireUser(request),
          { org: place.org, projectId: await projectOf(place) },
          { username: b.user_name, role: b.role },
          'add',
        );
        return reply.status(201).send(await projectUser(place, b.user_name));
      },
    );

    app.put(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects/:project/users/:user`,
      {
        config: onProject('manage'),
        schema: {
          tags,
          params: ProjectUserParams,
          body: ProjectUserUpdate,
          response: { 200: ProjectUser, ...errorResponses },
        },
      },
      async (request) => {
        const { user, ...place } = request.params;
        await setProjectUser(
          db,
          requireUser(request),
          { org: place.org, projectId: await projectOf(place) },
          { username: user, role: request.body.role },
          'update',
        );
        return projectUser(place, user);
      },
    );

    app.delete(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects/:project/users/:user`,
      {
        config: onProject('manage'),
        schema: { tags, params: ProjectUserParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        const { user, ...place } = request.params;
        await setProjectUser(
          db,
          requireUser(request),
          { org: place.org, projectId: await projectOf(place) },
          { username: user, role: null },
          'remove',
        );
        return reply.status(204).send(null);
      },
    );
  };
