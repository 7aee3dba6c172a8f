// The copilot socket: questions answered per second by one server over WebSockets,
// next to a bare `ws` echo server in a process of its own given the same frames by the same
// client loop: the gap is what answering costs, not the socket.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { ms, pct, row } from './report.mjs';
import { startServer } from './server.mjs';

const SECONDS = Number(process.env.BENCH_ASSISTANT_SECONDS ?? 5);
const SOCKETS = Number(process.env.BENCH_ASSISTANT_SOCKETS ?? 8);
const QUESTIONS = [
  'How do I create a disk?',
  'Why is my job pending?',
  'How do I share a job with another user?',
  'What does the hybrid mode retrieve?',
  'How are credits charged for apps?',
];

const ECHO = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () =>
  process.stdout.write(String(wss.address().port) + '\\n'));
wss.on('connection', (ws) => ws.on('message', (d) => ws.send(String(d))));
`;

const open = (url, protocols) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

/**
 * `SOCKETS` clients each asking in turn (the next question when the last is answered) for
 * `SECONDS`: answers a second and each question's round trip.
 */
async function load(url, protocols, isLast) {
  const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => open(url, protocols)));
  const latencies = [];
  const until = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    sockets.map(
      (ws, i) =>
        new Promise((resolve, reject) => {
          let sent = 0;
          let t0 = 0;
          const ask = () => {
            if (Date.now() >= until) return resolve();
            t0 = performance.now();
            const message = QUESTIONS[(i + sent++) % QUESTIONS.length];
            ws.send(JSON.stringify({ message, max_iterations: 3, mode: 'hybrid' }));
          };
          ws.on('message', (data) => {
            const m = JSON.parse(String(data));
            if (m.type === 'error') return reject(new Error(m.data.error));
            if (!isLast(m)) return;
            latencies.push(performance.now() - t0);
            ask();
          });
          ask();
        }),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  sockets.forEach((ws) => ws.close());
  return { rate: latencies.length / elapsed, latencies };
}

export async function benchAssistant(work) {
  const server = await startServer(join(work, 'assistant'), {
    ORRERY_RUNTIME: 'process',
    // The bench asks far more than a person: the per-user limit is lifted for it.
    ORRERY_ASSISTANT_QUESTIONS_PER_MINUTE: '1000000',
  });
  const echo = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const wsBase = server.base.replace('http', 'ws');
    const copilot = await load(
      `${wsBase}/api/v1/copilot/ws?key=bench`,
      ['copilot.orrery', `bearer.${server.token}`],
      (m) => m.type === 'response',
    );
    const port = await new Promise((resolve) =>
      echo.stdout.once('data', (d) => resolve(Number(String(d)))),
    );
    const bare = await load(`ws://127.0.0.1:${port}`, [], () => true);
    const what = `${SOCKETS} sockets, ${SECONDS} s`;
    row(`copilot answers/s (docs questions, hybrid, 3 rounds; ${what})`, copilot.rate.toFixed(0));
    row(
      'copilot round trip p50 / p99',
      `${ms(pct(copilot.latencies, 50))} / ${ms(pct(copilot.latencies, 99))}`,
    );
    row(`bare ws echo messages/s (same client, ${what})`, bare.rate.toFixed(0));
  } finally {
    echo.kill();
    await server.stop();
  }
}
