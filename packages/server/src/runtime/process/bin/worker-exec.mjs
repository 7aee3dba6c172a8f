// orrery-worker-exec <worker-host> <command>…: runs the command (words joined and run by
// /bin/sh, as ssh runs its arguments) in that worker of this job, relaying its input, output and
// exit code. `orrery-worker-exec --wait` returns once worker 0's command has ended, for the
// other workers of an MPI job. The job's runtime serves the socket in ORRERY_WORKER_EXEC_SOCKET
// and starts the command only in a worker of this job (runtime/process/worker-exec.ts, which
// speaks the same frames: a type byte, a 4-byte length, the payload). Plain Node, no build step.
import { createConnection } from 'node:net';

const REQUEST = 82; // 'R': {host, command, token} or {wait, token}, as JSON
const STDIN = 0;
const STDIN_END = 5;
const STDOUT = 1;
const STDERR = 2;
const EXIT = 3; // {"exit_code": N}

const USAGE = 'usage: orrery-worker-exec <worker-host> <command>... | orrery-worker-exec --wait';

function fail(message) {
  process.stderr.write(`orrery-worker-exec: ${message}\n`, () => process.exit(255));
}

function frame(type, payload) {
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

function main() {
  const args = process.argv.slice(2);
  const path = process.env.ORRERY_WORKER_EXEC_SOCKET;
  const token = process.env.ORRERY_WORKER_EXEC_TOKEN;
  if (!path || !token) return fail('this is not a worker of a job of several workers');
  const wait = args.length === 1 && args[0] === '--wait';
  if (!wait && (args.length < 2 || args[0].startsWith('-'))) return fail(USAGE);
  const request = wait
    ? { wait, token }
    : { host: args[0], command: args.slice(1).join(' '), token };
  const socket = createConnection(path);
  let ended = false;
  socket.on('error', (e) => fail(`cannot reach the job's runtime at ${path}: ${e.message}`));
  socket.on('connect', () => {
    socket.write(frame(REQUEST, Buffer.from(JSON.stringify(request))));
    if (wait) return;
    process.stdin.on('data', (d) => {
      if (!socket.write(frame(STDIN, d))) {
        process.stdin.pause();
        socket.once('drain', () => process.stdin.resume());
      }
    });
    const close = () => socket.writable && socket.write(frame(STDIN_END, Buffer.alloc(0)));
    process.stdin.once('end', close).once('error', close);
  });
  let pending = Buffer.alloc(0);
  socket.on('data', (d) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
      const type = pending[0];
      const payload = pending.subarray(5, 5 + pending.readUInt32BE(1));
      pending = pending.subarray(5 + payload.length);
      if (type === STDOUT || type === STDERR) {
        const out = type === STDOUT ? process.stdout : process.stderr;
        // The command's output waits for our reader, as over ssh.
        if (!out.write(payload)) {
          socket.pause();
          out.once('drain', () => socket.resume());
        }
      } else if (type === EXIT) {
        ended = true;
        const code = JSON.parse(String(payload)).exit_code;
        process.stdin.destroy();
        socket.end();
        process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
        return;
      }
    }
  });
  socket.on('close', () => {
    if (!ended) fail('the connection to the job ended before the command did');
  });
}

main();
