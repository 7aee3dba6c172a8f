// The jupyter app's program: Debian's classic Notebook server on a private port, served on the
// job's port under the ingress path it generates its links for (prefix-proxy.mjs). The token is
// empty: Orrery's ingress authenticates (apolo_auth) before a request reaches the job.
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { freePort, prefixProxy } from '../prefix-proxy.mjs';

const port = Number(process.env.PORT || 8888);
// The job's host name is its id; JUPYTER_BASE_PREFIX is the public URL's own path, if any.
const prefix = `${(process.env.JUPYTER_BASE_PREFIX || '').replace(/\/$/, '')}/ingress/${hostname()}/`;
const notebookDir = process.env.JUPYTER_NOTEBOOK_DIR || process.env.HOME || '/tmp';
const inner = await freePort();

const server = spawn(
  '/usr/bin/jupyter-notebook',
  [
    '--no-browser',
    '--ip=127.0.0.1',
    `--port=${inner}`,
    `--NotebookApp.base_url=${prefix}`,
    `--notebook-dir=${notebookDir}`,
    '--NotebookApp.token=',
    '--NotebookApp.password=',
    // The ingress's own cookie (SameSite=Lax) guards the job's path; the proxy changes the origin.
    '--NotebookApp.disable_check_xsrf=True',
    '--NotebookApp.allow_origin=*',
    '--NotebookApp.allow_remote_access=True',
  ],
  { stdio: 'inherit', env: { ...process.env, JUPYTER_RUNTIME_DIR: '/tmp/jupyter-runtime' } },
);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => server.kill(s));
await prefixProxy({ port, target: inner, prefix });
console.log(`jupyter: serving ${prefix} on ${port}, notebooks in ${notebookDir}`);
