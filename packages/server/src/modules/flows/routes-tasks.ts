import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FLOW_API, flowTime, Task, TaskCreate, TaskStatus } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import {
  attemptWithProject,
  insertTask,
  replaceTask,
  taskByYamlId,
  tasksOf,
  taskWithProject,
} from './service.js';
import type { TaskValues } from './store.js';
import { taskWire } from './wire.js';
import { checked, Id, indexed, key, sendReadable, unlessTaken, wireDate } from './routes-common.js';

const OfAttempt = z.object({ attempt_id: key });
const ByYamlId = OfAttempt.extend({ yaml_id: key });
/**
 * A task as the client sends it, on create and on `replace` (the whole record, matched by
 * attempt and yaml id). Status times are stored as the wire sends them back: `+00:00`.
 */
const Body = TaskCreate.extend({
  // Half of a unique index.
  yaml_id: indexed(1024),
  statuses: z
    .array(z.object({ created_at: wireDate.transform(flowTime), status: TaskStatus }))
    .min(1)
    .max(10_000),
});
const valuesOf = (b: z.infer<typeof Body>): TaskValues => ({
  attemptId: b.attempt_id,
  yamlId: b.yaml_id,
  rawId: b.raw_id ?? null,
  outputs: b.outputs ?? null,
  state: b.state ?? null,
  statuses: b.statuses,
});

/** Tasks of an attempt; the last item of `statuses` is the task's status. */
export const taskRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      `${FLOW_API}/tasks`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: OfAttempt,
          response: { 200: z.array(Task), ...errorResponses },
        },
      },
      async (request, reply) => {
        const found = await attemptWithProject(ctx.db, request.query.attempt_id);
        return sendReadable(
          request,
          reply,
          found?.project,
          () => tasksOf(ctx.db, request.query.attempt_id),
          taskWire,
        );
      },
    );

    app.post(
      `${FLOW_API}/tasks`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], body: Body, response: { 201: Task, ...errorResponses } },
      },
      async (request, reply) => {
        const b = request.body;
        const attempt = await attemptWithProject(ctx.db, b.attempt_id);
        await checked(request, attempt, 'write', `Attempt ${b.attempt_id}`);
        const created = await unlessTaken(
          () => insertTask(ctx.db, valuesOf(b)),
          `Task ${b.yaml_id} already exists in attempt ${b.attempt_id}`,
        );
        return reply.status(201).send(taskWire(created));
      },
    );

    app.put(
      `${FLOW_API}/tasks/replace`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], body: Body, response: { 200: Task, ...errorResponses } },
      },
      async (request) => {
        const b = request.body;
        const attempt = await attemptWithProject(ctx.db, b.attempt_id);
        await checked(request, attempt, 'write', `Attempt ${b.attempt_id}`);
        const replaced = await replaceTask(ctx.db, valuesOf(b));
        if (!replaced) throw notFound(`Task ${b.yaml_id} not found in attempt ${b.attempt_id}`);
        return taskWire(replaced);
      },
    );

    app.get(
      `${FLOW_API}/tasks/by_yaml_id`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ByYamlId,
          response: { 200: Task, ...errorResponses },
        },
      },
      async (request) => {
        const { attempt_id, yaml_id } = request.query;
        const attempt = await attemptWithProject(ctx.db, attempt_id);
        await checked(request, attempt, 'read', `Attempt ${attempt_id}`);
        const found = await taskByYamlId(ctx.db, attempt_id, yaml_id);
        if (!found) throw notFound(`Task ${yaml_id} not found in attempt ${attempt_id}`);
        return taskWire(found);
      },
    );

    app.get(
      `${FLOW_API}/tasks/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: Task, ...errorResponses } },
      },
      async (request) => {
        const found = await taskWithProject(ctx.db, request.params.id);
        const { task } = await checked(request, found, 'read', `Task ${request.params.id}`);
        return taskWire(task);
      },
    );
  };
