// Serves a web app that insists on knowing its public path (Jupyter's base_url) behind Orrery's
// ingress, which strips `/ingress/<job id>` before forwarding: requests on `port` go to the app on
// `target` with `prefix` put back, WebSocket upgrades included.
import { request, createServer } from 'node:http';
import { connect } from 'node:net';

export function prefixProxy({ port, target, prefix }) {
  const base = prefix.replace(/\/$/, '');
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target,
        method: req.method,
        path: base + req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('The app is not answering yet');
    });
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(target, '127.0.0.1', () => {
      const lines = [`${req.method} ${base}${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', close);
    socket.on('error', close);
  });
  return new Promise((resolve) => server.listen(port, '0.0.0.0', () => resolve(server)));
}

/** A port nothing listens on now, for the app behind the proxy. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}
