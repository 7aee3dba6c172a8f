// `npm run dev`: the API server and Vite's dev server (which proxies the API to it).
import { ensureBuilt, ensureDependencies, start } from './lib.mjs';

ensureDependencies();
ensureBuilt();
const api = start(process.execPath, ['packages/server/bin/orrery.js', 'serve'], {
  env: {
    ...process.env,
    ORRERY_PUBLIC_URL: process.env.ORRERY_PUBLIC_URL ?? 'http://localhost:5173',
  },
});
const web = start('npx', ['vite'], { cwd: new URL('../packages/web', import.meta.url).pathname });
const stop = () => {
  api.kill('SIGTERM');
  web.kill('SIGTERM');
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, stop);
api.on('exit', stop);
web.on('exit', stop);
