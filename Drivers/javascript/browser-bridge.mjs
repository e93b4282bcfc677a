// SPDX-License-Identifier: MIT
//
// The Chromium bridge shared by the harness's browser hosts (Drivers/javascript/browser-host.mjs
// for the PubNub SDK, Drivers/pusher-js/browser-host.mjs for pusher-js).
//
// A JSON-lines driver for the runner (docs/driver-protocol.md) whose client runs in headless
// Chromium: the host serves a page from its own loopback origin (another port than the mock's, so
// every request of the client is cross-origin), starts Debian's `chromium` with a throwaway profile
// (never with --disable-web-security), loads the client bundle (`/sdk.js`, a classic script) and
// the page module (which imports the driver core from `modules`) and carries the protocol lines
// between stdin/stdout and the page over a WebSocket on the same port (Debian's node-ws; loopback
// peers only).
//
// The page module opens `ws://<page origin>/bridge` and speaks these host messages besides the
// protocol lines: page → host `{"__host":"ready"}` (driver made), `{"__host":"log","text":…}`,
// `{"__host":"fatal","text":…}`; host → page `{"__host":"reload"}` (stop the driver and reload),
// `{"__host":"tls","on":bool,"reason":…}` (before a configure: whether the case's TLS listener is
// trusted by the browser).
//
// Bounded waits: the page must connect within 20 s of Chromium's start; a reusing close reloads
// the page (which ends every request, socket and timer of the case) and waits at most 5 s for it.
// Chromium is killed when the host exits (stdin closed, SIGTERM, or an error).
import http from 'node:http';
import fs from 'node:fs';
import readline from 'node:readline';
import tls from 'node:tls';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { startChromium as launchChromium } from './chromium.mjs';

const require = createRequire(import.meta.url);

/// Runs a browser host until stdin closes. `name` prefixes stderr lines; `sdkPath` is the client
/// bundle; `pageModule` the page's module text; `modules` maps URL paths of the page to files;
/// `tlsOrigin(configure)` gives the `host:port` of a TLS case's listener (the leaf to pin).
export async function runBrowserHost({ name, title, sdkPath, chromiumPath = 'chromium', pageModule, modules = {}, tlsOrigin }) {
  function log(text) {
    process.stderr.write(`${name}: ${String(text).replace(/\s+$/, '')}\n`);
  }

  function fail(text) {
    log(text);
    process.exit(3);
  }

  let WebSocketServer;
  for (const candidate of ['ws', '/usr/share/nodejs/ws']) {
    try {
      const ws = require(candidate);
      WebSocketServer = ws.WebSocketServer || ws.Server;
      if (WebSocketServer) break;
    } catch (e) { /* next */ }
  }
  if (!WebSocketServer) fail('no WebSocket library: install Debian\'s node-ws (apt-get install node-ws) or `ws` in node_modules');

  const pageHTML = `<!doctype html>
  <html><head><meta charset="utf-8"><title>${title}</title></head>
  <body>
  <script src="/sdk.js"></script>
  <script type="module" src="/page.mjs"></script>
  </body></html>`;
  const files = {
    '/': { type: 'text/html; charset=utf-8', body: () => pageHTML },
    '/index.html': { type: 'text/html; charset=utf-8', body: () => pageHTML },
    '/page.mjs': { type: 'text/javascript; charset=utf-8', body: () => pageModule },
    '/sdk.js': { type: 'text/javascript; charset=utf-8', body: () => fs.readFileSync(sdkPath) },
  };
  for (const [url, file] of Object.entries(modules)) {
    files[url] = { type: 'text/javascript; charset=utf-8', body: () => fs.readFileSync(file) };
  }

  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const file = files[url.pathname];
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' });
    response.end(file.body());
  });

  const bridge = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/bridge' || request.socket.remoteAddress !== '127.0.0.1') { socket.destroy(); return; }
    bridge.handleUpgrade(request, socket, head, (ws) => bridge.emit('connection', ws, request));
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = server.address().port;

  // --- Chromium ---------------------------------------------------------------------------------

  let chromium = null; // { stop } of the running browser
  let page = null; // the connected page's socket
  let waiting = []; // lines for the page, sent once it is ready
  let readyWaiters = [];
  let exiting = false;

  function killChromium() {
    if (chromium) chromium.stop();
    chromium = null;
  }

  function startChromium(extraFlags = []) {
    killChromium();
    chromium = launchChromium({
      chromiumPath, url: `http://127.0.0.1:${port}/`, extraFlags,
      onError: (error) => { if (!exiting) { log(`cannot start ${chromiumPath}: ${error.message}`); shutdown(3); } },
      onExit: (code, tail) => {
        if (!exiting) {
          log(`chromium exited (${code}): ${tail.split('\n').slice(-5).join(' | ')}`);
          shutdown(4);
        }
      },
    });
  }

  function whenReady(timeoutMs) {
    if (page) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => { readyWaiters = readyWaiters.filter((w) => w !== done); resolve(false); }, timeoutMs);
      const done = () => { clearTimeout(timer); resolve(true); };
      readyWaiters.push(done);
    });
  }

  bridge.on('connection', (ws) => {
    ws.on('message', (data) => {
      let object;
      try { object = JSON.parse(String(data)); } catch (e) { log('unreadable line from the page'); return; }
      if (object.__host === 'ready') {
        page = ws;
        const queued = waiting;
        waiting = [];
        for (const line of queued) ws.send(line);
        const waiters = readyWaiters;
        readyWaiters = [];
        waiters.forEach((w) => w());
        return;
      }
      if (object.__host === 'log') { log(object.text); return; }
      if (object.__host === 'fatal') { log(`the page failed: ${object.text}`); shutdown(5); return; }
      process.stdout.write(`${JSON.stringify(object)}\n`);
    });
    ws.on('close', () => { if (page === ws) page = null; });
  });

  function toPage(object) {
    const line = JSON.stringify(object);
    if (page && page.readyState === 1) page.send(line);
    else waiting.push(line);
  }

  // --- the request loop -------------------------------------------------------------------------

  async function handle(step) {
    if (step.type === 'close' && step.reuse) {
      // Reload the page: every fetch, timer and listener of the case ends with it. The next
      // control request waits until the reply (sent after the reload) is out.
      const written = new Promise((resolve) => reloadAfter.set(step.id, resolve));
      toPage(step);
      await written;
      return;
    }
    if (step.type === 'configure' || step.type === 'hello') {
      if (!(await whenReady(20000))) {
        process.stdout.write(`${JSON.stringify({ id: step.id, type: 'error', detail: 'the Chromium page did not connect within 20 s' })}\n`);
        return;
      }
      if (step.type === 'configure') {
        const reason = step.tls ? await trustLeaf(step) : null;
        if (!(await whenReady(20000))) {
          process.stdout.write(`${JSON.stringify({ id: step.id, type: 'error', detail: 'the Chromium page did not come back within 20 s' })}\n`);
          return;
        }
        toPage({ __host: 'tls', on: Boolean(step.tls) && !reason, reason });
      }
    }
    toPage(step);
  }

  // TLS: Chromium trusts an extra root only through the profile's NSS database (certutil, not in
  // a default Debian install) or through --ignore-certificate-errors-spki-list (honoured with
  // --user-data-dir), given at start-up. The run's CA arrives with configure, so the host checks the
  // case's TLS listener itself against caPEM (Node's TLS, full verification: chain, validity, name
  // 127.0.0.1/localhost) and, when the leaf verifies, pins that leaf's SPKI hash and restarts
  // Chromium with it (once per leaf; every leaf of the run has its own key, so a pinned leaf admits
  // no other certificate: the catalog's bad certificates are still refused by Chromium). A listener
  // whose certificate does not verify is not pinned: Chromium refuses it as a browser would.
  const pins = new Set();

  function spkiHash(raw) {
    const der = new crypto.X509Certificate(raw).publicKey.export({ type: 'spki', format: 'der' });
    return crypto.createHash('sha256').update(der).digest('base64');
  }

  function probeLeaf(origin, ca) {
    const [host, portText] = origin.split(':');
    return new Promise((resolve) => {
      let done = false;
      const finish = (value) => { if (!done) { done = true; clearTimeout(timer); socket.destroy(); resolve(value); } };
      const timer = setTimeout(() => finish(null), 3000);
      const socket = tls.connect({ host, port: Number(portText), ca: [ca], rejectUnauthorized: true,
        servername: /^[0-9.]+$/.test(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }, () => {
        try { finish(spkiHash(socket.getPeerCertificate(false).raw)); } catch (e) { finish(null); }
      });
      socket.on('error', () => finish(null));
    });
  }

  async function trustLeaf(step) {
    if (!step.caPEM) return 'no caPEM in configure';
    const origin = tlsOrigin(step);
    const hash = await probeLeaf(origin, step.caPEM);
    if (!hash || pins.has(hash)) return null;
    pins.add(hash);
    log(`pinning the TLS leaf of ${origin} (${hash}); restarting Chromium`);
    page = null;
    startChromium([`--ignore-certificate-errors-spki-list=${Array.from(pins).join(',')}`]);
    return null;
  }


  // Replies from the page to a reusing close: the page answers, then the host reloads it.
  const originalWrite = process.stdout.write.bind(process.stdout);
  let reloadAfter = new Map();
  process.stdout.write = (chunk, ...rest) => {
    const text = String(chunk);
    try {
      const object = JSON.parse(text);
      if (object && reloadAfter.has(object.id)) {
        const resolve = reloadAfter.get(object.id);
        reloadAfter.delete(object.id);
        reloadPage().then((ok) => {
          if (!ok) object.data = { reusable: false, detail: 'the page did not come back within 5 s' };
          originalWrite(`${JSON.stringify(object)}\n`);
          resolve();
        });
        return true;
      }
    } catch (e) { /* not one object */ }
    return originalWrite(chunk, ...rest);
  };

  async function reloadPage() {
    const old = page;
    page = null;
    if (old && old.readyState === 1) old.send(JSON.stringify({ __host: 'reload' }));
    return whenReady(5000);
  }

  startChromium();

  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let chain = Promise.resolve();
  input.on('line', (line) => {
    if (!line.trim()) return;
    let step;
    try { step = JSON.parse(line); } catch (e) { log(`unreadable line: ${line.slice(0, 200)}`); return; }
    if (step.type === 'configure' || step.type === 'hello' || step.type === 'close') {
      chain = chain.then(() => handle(step));
    } else {
      chain.then(() => handle(step));
    }
  });
  input.on('close', () => shutdown(0));

  function shutdown(code) {
    if (exiting) return;
    exiting = true;
    killChromium();
    try { server.close(); } catch (e) { /* closing */ }
    process.exit(code);
  }

  process.on('SIGTERM', () => shutdown(0));
  process.on('SIGINT', () => shutdown(0));
  process.on('exit', () => { if (chromium) killChromium(); });
}
