import { readFileSync } from 'node:fs';
import {
  checkAnswer,
  jobsOf,
  nodesOf,
  SlurmUnreachable,
  UNKNOWN_JOB,
  type SlurmClient,
  type SlurmJob,
  type Submission,
} from './client.js';
import { mintToken, TOKEN_LIFETIME_S } from './jwt.js';

const API = '/slurm/v0.0.38';

/** slurmrestd over HTTP with JWTs for the service user, minted with slurmctld's HS256 key. */
export class RestClient implements SlurmClient {
  private token?: { value: string; expires: number };

  constructor(
    private readonly url: string,
    private readonly keyFile: string,
    private readonly user: string,
  ) {}

  async submit(s: Submission): Promise<number> {
    const job = {
      name: s.name,
      standard_output: s.output,
      current_working_directory: s.workdir,
      // slurmrestd insists on an environment; the script sets the job's own.
      environment: { PATH: '/usr/bin:/bin' },
      cpus_per_task: s.cpus,
      memory_per_node: s.memoryMb,
      kill_on_invalid_dependency: true,
      ...(s.nodes
        ? { minimum_nodes: s.nodes, maximum_nodes: s.nodes, tasks: s.nodes, tasks_per_node: 1 }
        : {}),
      requeue: false,
      ...(s.gres ? { gres: s.gres } : {}),
      ...(s.partition ? { partition: s.partition } : {}),
      ...(s.timeMinutes ? { time_limit: s.timeMinutes } : {}),
    };
    const body = await this.call('POST', '/job/submit', { script: s.script, job });
    const id = (body as { job_id?: unknown }).job_id;
    if (typeof id !== 'number') throw new Error('slurmrestd answered a submit without a job id');
    return id;
  }

  async jobs(): Promise<SlurmJob[]> {
    return jobsOf(await this.call('GET', '/jobs'));
  }

  async job(id: number): Promise<SlurmJob | null> {
    try {
      return jobsOf(await this.call('GET', `/job/${id}`)).find((j) => j.id === id) ?? null;
    } catch (e) {
      if (e instanceof Error && UNKNOWN_JOB.test(e.message)) return null;
      throw e;
    }
  }

  async terminate(id: number, signal: 'TERM' | 'USR2' = 'TERM'): Promise<void> {
    // v0.0.38 takes no flags here: slurmrestd's signal reaches every process of the job, as
    // `scancel --full` does (driver.slurm.test.ts checks a child gets it).
    await this.stop(id, `?signal=SIG${signal}`);
  }

  async cancel(id: number): Promise<void> {
    await this.stop(id, '');
  }

  async nodes() {
    return nodesOf(await this.call('GET', '/nodes'));
  }

  private async stop(id: number, query: string) {
    try {
      await this.call('DELETE', `/job/${id}${query}`);
    } catch (e) {
      if (e instanceof Error && /already completing or completed|Invalid job id/i.test(e.message))
        return;
      throw e;
    }
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.url}${API}${path}`, {
        method,
        headers: {
          'X-SLURM-USER-NAME': this.user,
          'X-SLURM-USER-TOKEN': this.jwt(),
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (e) {
      throw new SlurmUnreachable(`slurmrestd at ${this.url}: ${String((e as Error).cause ?? e)}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const message = `slurmrestd ${method} ${path}: ${res.status} ${text.slice(0, 200)}`;
      throw res.status >= 500 ? new SlurmUnreachable(message) : new Error(message);
    }
    checkAnswer(json, `slurmrestd ${method} ${path}`);
    if (!res.ok) throw new Error(`slurmrestd ${method} ${path}: ${res.status}`);
    return json;
  }

  private jwt(): string {
    const now = Math.floor(Date.now() / 1000);
    // A new token when less than a minute of the last one is left.
    if (!this.token || this.token.expires - now < 60) {
      const value = mintToken(readFileSync(this.keyFile), this.user, now, TOKEN_LIFETIME_S);
      this.token = { value, expires: now + TOKEN_LIFETIME_S };
    }
    return this.token.value;
  }
}
