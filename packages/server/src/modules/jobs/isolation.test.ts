import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../test/harness.js';
import { call, submitJob, processServer } from '../../test/fixtures.js';
import { SLIRP } from '../../runtime/process/network.js';
import { BWRAP } from '../../runtime/process/sandbox.js';
import { injectAt, whenServing } from '../../test/ingress.js';

const missing = [
  existsSync(BWRAP) ? '' : 'bubblewrap',
  existsSync(SLIRP) ? '' : 'slirp4netns',
  process.getuid?.() === 0 ? '' : 'a root server',
].filter(Boolean);
const NODE = process.execPath;

/**
 * A tenant's job against the platform itself: the server that runs it listens on the
 * host's loopback, and another tenant's job serves HTTP behind the ingress.
 */
describe.skipIf(missing.length > 0)(
  `a job against the Orrery server${missing.length ? ` (skipped: needs ${missing.join(', ')})` : ''}`,
  () => {
    let s: TestServer;
    let owner: TestUser;
    processServer((x) => ({ s, owner } = x));

    const submit = async (command: string, extra: Record<string, unknown> = {}) => ({
      id: await submitJob(s, owner, command, extra),
    });
    const until = async (id: string, statuses: string[]) => {
      for (let i = 0; i < 600; i++) {
        const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
        if (statuses.includes(j.status)) return j;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} never reached ${statuses.join('/')}`);
    };

    it('fails a job that exceeds its preset memory with OOMKilled and the limit it exceeded', async () => {
      // cpu-small holds 1 GiB (or half the machine); tail keeps the whole stream in memory.
      const j = await submit('head -c 40000000000 /dev/zero | tail > /dev/null');
      const done = await until(j.id, ['failed', 'succeeded']);
      expect(done.history).toMatchObject({
        status: 'failed',
        reason: 'OOMKilled',
        exit_code: 137,
        description: expect.stringMatching(
          /^Killed: the job exceeded its memory limit of [\d.]+ [MGT]B$/,
        ),
      });
    });

    it("cannot reach the server's port nor another job's forwarded port", async () => {
      const port = Number(new URL(s.url!).port);
      const web = await submit(
        `${NODE} -e "require('http').createServer((q,r)=>r.end('secret')).listen(process.env.PORT)"`,
        { http: { port: 8080, requires_auth: true } },
      );
      await until(web.id, ['running']);
      // Served through the ingress once it listens; its forward's host port is in job.json.
      const at = `http://${web.id}.jobs.localhost:${port}/`;
      const answer = await whenServing(() => injectAt(s, at, { headers: owner.headers }));
      expect(answer.body).toBe('secret');
      const record = join(s.config.dataDir, 'jobs', web.id, 'job.json');
      const endpoint = JSON.parse(readFileSync(record, 'utf8')) as { port: number };
      const fetches = [`127.0.0.1:${port}/api/v1/config`, `127.0.0.1:${endpoint.port}/`];
      const probe = await submit(
        `${NODE} -e "for (const t of process.argv.slice(1)) await fetch('http://'+t).then(r=>console.log(t,'reached',r.status),e=>console.log(t,e.cause?.code))" --input-type=module ${fetches.join(' ')}`,
      );
      await until(probe.id, ['succeeded', 'failed']);
      const log = await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${probe.id}/log`,
        headers: owner.headers,
      });
      expect(log.body.trim().split('\n')).toEqual(
        fetches.map((t) => expect.stringMatching(new RegExp(`^${t} (ECONNREFUSED|ENETUNREACH)$`))),
      );
      // The server itself reaches both.
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/config`)).status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${endpoint.port}/`)).text()).toBe('secret');
      await call(s, 'DELETE', `/api/v1/jobs/${web.id}`, owner);
    });
  },
);
