// The shell app's program, run inside the instance's job: one login shell on a pty, shown by
// xterm in the browser over a WebSocket. The session outlives a closed tab (a reconnecting page
// gets the recent output back), as ttyd + screen do for Apolo's shell. Plain Node, no build step:
// the job loads it and its modules read-only from /opt/orrery (src/runtime/process/app-runtime.ts).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pty from '@lydell/node-pty';
import { WebSocketServer } from 'ws';

const require = createRequire(import.meta.url);
const xtermDir = dirname(dirname(require.resolve('@xterm/xterm')));
const fitDir = dirname(dirname(require.resolve('@xterm/addon-fit')));
const here = dirname(new URL(import.meta.url).pathname);

/** Recent output replayed to a page that (re)connects, so a reload shows the screen again. */
const SCROLLBACK_BYTES = 256 * 1024;
const home = process.env.SHELL_HOME || process.env.HOME || '/tmp';
const port = Number(process.env.PORT || 7681);

const files = {
  '/': ['index.html', join(here, 'index.html'), 'text/html; charset=utf-8'],
  '/xterm.js': ['xterm.js', join(xtermDir, 'lib/xterm.js'), 'text/javascript'],
  '/xterm.css': ['xterm.css', join(xtermDir, 'css/xterm.css'), 'text/css'],
  '/addon-fit.js': ['addon-fit.js', join(fitDir, 'lib/addon-fit.js'), 'text/javascript'],
};
const cache = new Map(Object.entries(files).map(([path, [, file]]) => [path, readFileSync(file)]));

let lastActivity = new Date();
let term = null;
let scrollback = '';
const clients = new Set();

function session() {
  if (term) return term;
  term = pty.spawn(process.env.SHELL_PROGRAM || '/bin/bash', ['-l'], {
    name: 'xterm-256color',
    cols: 80,
    rows: 24,
    cwd: home,
    env: { ...process.env, TERM: 'xterm-256color', HOME: home, LANG: 'C.UTF-8' },
  });
  term.onData((data) => {
    lastActivity = new Date();
    scrollback = (scrollback + data).slice(-SCROLLBACK_BYTES);
    for (const ws of clients) ws.send(data);
  });
  // `exit` ends the session: the next page gets a fresh shell, as a terminal window would.
  term.onExit(() => {
    term = null;
    scrollback = '';
    for (const ws of clients) ws.close(1000, 'The shell exited');
  });
  return term;
}

const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/activity') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ last_activity: lastActivity.toISOString(), clients: clients.size }));
    return;
  }
  const body = cache.get(path);
  if (!body) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
    return;
  }
  res.writeHead(200, { 'content-type': files[path][2], 'cache-control': 'no-cache' });
  res.end(body);
});

// Input is text; a resize is a text frame starting with NUL then JSON {cols, rows}.
const sockets = new WebSocketServer({ server, path: '/pty' });
sockets.on('connection', (ws) => {
  session();
  clients.add(ws);
  if (scrollback) ws.send(scrollback);
  ws.on('message', (raw) => {
    const text = String(raw);
    if (text.startsWith('\u0000')) {
      const { cols, rows } = JSON.parse(text.slice(1));
      if (cols > 0 && rows > 0) term?.resize(Math.min(cols, 1000), Math.min(rows, 1000));
      return;
    }
    lastActivity = new Date();
    term?.write(text);
  });
  ws.on('close', () => clients.delete(ws));
});

server.listen(port, '0.0.0.0', () => console.log(`shell: listening on ${port}, home ${home}`));
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    term?.kill();
    process.exit(0);
  });
}
