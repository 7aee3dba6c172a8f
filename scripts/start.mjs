// `npm start`: install what is missing, build, then serve on the embedded defaults (migrations run at start).
import { ensureAppRuntimes, ensureBuilt, ensureDependencies, start } from './lib.mjs';

ensureDependencies();
ensureAppRuntimes();
ensureBuilt();
const server = start(process.execPath, [
  'packages/server/bin/orrery.js',
  'serve',
  ...process.argv.slice(2),
]);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
