// The jupyter app's program: Debian's classic Notebook server on the job's port, at the root of
// the job's own host (Orrery's ingress serves every job at a host of its own). The token is
// empty: Orrery's ingress authenticates (apolo_auth) before a request reaches the job.
import { spawn } from 'node:child_process';

const port = Number(process.env.PORT || 8888);
const notebookDir = process.env.JUPYTER_NOTEBOOK_DIR || process.env.HOME || '/tmp';

const server = spawn(
  '/usr/bin/jupyter-notebook',
  [
    '--no-browser',
    '--ip=0.0.0.0',
    `--port=${port}`,
    '--NotebookApp.base_url=/',
    `--notebook-dir=${notebookDir}`,
    '--NotebookApp.token=',
    '--NotebookApp.password=',
    // The ingress's own cookie (SameSite=Lax, of this job's host only) guards the job, and the
    // ingress refuses WebSockets and unsafe requests from other origins.
    '--NotebookApp.disable_check_xsrf=True',
    '--NotebookApp.allow_origin=*',
    '--NotebookApp.allow_remote_access=True',
  ],
  { stdio: 'inherit', env: { ...process.env, JUPYTER_RUNTIME_DIR: '/tmp/jupyter-runtime' } },
);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => server.kill(s));
console.log(`jupyter: serving / on ${port}, notebooks in ${notebookDir}`);
