// `npm start`: install what is missing (as root, the Debian packages of the embedded defaults in
// one apt-get run), build, then serve on the embedded defaults (migrations run at start).
import { ensureApt, ensureAppRuntimes, ensureBuilt, ensureDependencies, start } from './lib.mjs';
import { embeddedPackages } from './packages.mjs';

ensureApt(embeddedPackages(), { quiet: true });
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
