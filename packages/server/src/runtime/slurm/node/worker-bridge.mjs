// node worker-bridge.mjs <socket> <job dir> <job id> <workers>: the launch agent's other end
// for a worker of a Slurm gang (runtime/slurm/mpi.ts, docs/jobs.md "MPI"). It runs on the worker's
// node, outside its sandbox, as the service user, and serves the socket the sandbox sees at
// /run/orrery/exec.sock with the frames `orrery-worker-exec` speaks (a type byte, a 4-byte length,
// the payload). A command for another worker of the job becomes a step of the job's own
// allocation on that worker's node (`srun --overlap --jobid=$SLURM_JOB_ID`), which enters that
// worker's sandbox (the job's enter.sh): nothing outside this job's workers can be reached through
// it. Plain Node, no build step: it runs where the server's build may not be, so it reads the
// frames itself, as the process runtime's server of the same socket does (worker-exec.ts).
import { spawn } from 'node:child_process';
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const [REQUEST, STDIN, STDIN_END, STDOUT, STDERR, EXIT] = [82, 0, 5, 1, 2, 3];
const MAX_FRAME = 1 << 20;
const POLL_MS = 100;
/** srun's own line for a task's non-zero exit: the exit code says it already. */
const TASK_EXIT = /^srun: error: [^:\n]+: task \d+: Exited with exit code \d+\n/gm;

const [path, jobDir, jobId, count] = process.argv.slice(2);
const hosts = [...Array(Number(count)).keys()].map((r) => `${jobId}.w${r}`);
const token = Buffer.from(process.env.ORRERY_WORKER_EXEC_TOKEN ?? '');
const workerDir = (rank) => join(jobDir, `w${rank}`);

const frame = (type, payload) => {
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
};

/**
 * Whether worker `rank`'s command has ended: its `ended` (gang-script.ts's WORKER_ENDED, made as
 * the command ends, while the worker keeps its network for its peers) or its `exit`.
 */
const ended = (rank) => ['ended', 'exit'].some((f) => existsSync(join(workerDir(rank), f)));

/** Until `ready()` or the client leaves: what a request waits on (a file another node writes). */
async function until(ready, abort) {
  while (!ready() && !abort.aborted) await sleep(POLL_MS);
  return !abort.aborted;
}

function serve(socket) {
  const abort = new AbortController();
  let pending = Buffer.alloc(0);
  let child;
  const early = [];
  let inputEnded = false;
  let requested = false;
  const send = (type, payload) => socket.writable && socket.write(frame(type, payload));
  const finish = (code, message) => {
    if (message) send(STDERR, Buffer.from(`orrery-worker-exec: ${message}\n`));
    send(EXIT, Buffer.from(JSON.stringify({ exit_code: code })));
    socket.end();
  };
  socket.on('error', () => undefined);
  socket.on('close', () => {
    abort.abort();
    child?.stdin.end();
  });
  socket.on('data', (d) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) return socket.destroy();
      if (pending.length < 5 + length) return;
      const [type, payload] = [pending[0], pending.subarray(5, 5 + length)];
      pending = pending.subarray(5 + length);
      if (type === REQUEST && !requested) {
        requested = true;
        void start(payload).catch((e) => finish(255, e.message));
      } else if (type === STDIN) {
        if (child) child.stdin.write(payload);
        else early.push(payload);
      } else if (type === STDIN_END) {
        inputEnded = true;
        child?.stdin.end();
      }
    }
  });

  async function start(payload) {
    const request = JSON.parse(String(payload));
    const given = Buffer.from(String(request.token ?? ''));
    if (given.length !== token.length || !timingSafeEqual(given, token)) {
      return finish(255, 'refused: not a worker of this job');
    }
    if (request.wait === true) {
      return (await until(() => ended(0), abort.signal)) && finish(0);
    }
    const { host, command } = request;
    if (typeof host !== 'string' || typeof command !== 'string') return finish(255, 'bad request');
    const named = hosts.indexOf(host);
    const rank = named >= 0 ? named : /^\d+$/.test(host) ? Number(host) : -1;
    if (rank < 0 || rank >= hosts.length) {
      return finish(
        255,
        `${host} is not a worker of this job; its workers are ${hosts.join(', ')}`,
      );
    }
    // Asked to launch into the others, worker 0 lets them start (gang-script.ts holds them until
    // it listens on its rendezvous port, which mpirun never does).
    const released = join(jobDir, 'master.listening');
    if (!existsSync(released)) writeFileSync(released, '');
    const dir = workerDir(rank);
    const up = () => existsSync(join(dir, 'started')) || ended(rank);
    if (!(await until(up, abort.signal))) return;
    if (ended(rank)) return finish(255, `${host} has ended`);
    const node = readFileSync(join(dir, 'node'), 'utf8').trim();
    child = spawn(
      'srun',
      [
        '--overlap',
        `--jobid=${process.env.SLURM_JOB_ID}`,
        `--nodelist=${node}`,
        ...['--nodes=1', '--ntasks=1', '--mem=0', '--input=0', '--quiet', `--chdir=${dir}`],
        ...['/bin/sh', join(jobDir, 'enter.sh'), dir, '/bin/sh', '-c', command],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    for (const s of child.stdio) s.on('error', () => undefined);
    for (const d of early.splice(0)) child.stdin.write(d);
    if (inputEnded || abort.signal.aborted) child.stdin.end();
    const relay = (from, type, filter = (b) => b) =>
      new Promise((resolve) => {
        from.on('data', (d) => {
          const out = filter(d);
          // The command's output waits for the client's reader, as over ssh.
          if (out.length && !send(type, out)) {
            from.pause();
            socket.once('drain', () => from.resume());
          }
        });
        from.once('end', resolve).once('error', resolve);
      });
    const withoutTaskExit = (d) =>
      Buffer.from(d.toString('latin1').replace(TASK_EXIT, ''), 'latin1');
    const code = new Promise((resolve) => {
      child.once('error', () => resolve(127));
      child.once('exit', (c, signal) => resolve(c ?? 128 + (constants.signals[signal] ?? 0)));
    });
    const [exit] = await Promise.all([
      code,
      relay(child.stdout, STDOUT),
      relay(child.stderr, STDERR, withoutTaskExit),
    ]);
    finish(exit);
  }
}

rmSync(path, { force: true });
createServer(serve).listen(path);
