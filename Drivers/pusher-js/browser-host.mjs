#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// Browser host of the pusher-js driver: `node Drivers/pusher-js/browser-host.mjs --sdk PATH`.
//
// pusher-js runs in a headless Chromium page served from the host's own loopback origin
// (Drivers/javascript/browser-bridge.mjs: the page, Chromium, the WebSocket bridge to
// stdin/stdout, TLS pinning, reloads between reused cases); the page loads the web bundle and
// pusher-core.mjs.
//
//   --sdk PATH          the web bundle: pusher-js dist/web/pusher-with-encryption.js or
//                       dist/web/pusher.js, or Drivers/pusher-js/mini-client.js
//                       (default: $PUSHER_JS_SDK)
//   --chromium PATH     the browser (default: $CHROMIUM or chromium)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBrowserHost } from '../javascript/browser-bridge.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function fail(text) {
  process.stderr.write(`browser-host: ${text}\n`);
  process.exit(3);
}

function argument(name) {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

const sdkPath = argument('--sdk') || process.env.PUSHER_JS_SDK;
if (!sdkPath) fail('no pusher-js bundle: pass --sdk PATH (pusher-js dist/web/pusher-with-encryption.js or pusher.js, or Drivers/pusher-js/mini-client.js)');
if (!fs.existsSync(sdkPath) || !fs.statSync(sdkPath).isFile()) fail(`--sdk ${sdkPath}: not a bundle file`);

// The bundle's banner: "Pusher JavaScript Library vX.Y.Z".
const banner = /Pusher JavaScript Library v(\d+\.\d+\.\d+\S*)/.exec(fs.readFileSync(sdkPath, 'utf8').slice(0, 400));

// --- the page ---------------------------------------------------------------------------------

const PAGE_MODULE = `
import { createDriver } from '/pusher-core.mjs';
const socket = new WebSocket('ws://' + location.host + '/bridge');
const send = (object) => { if (socket.readyState === 1) socket.send(JSON.stringify(object)); };
const log = (text) => send({ __host: 'log', text: String(text) });
window.addEventListener('error', (event) => log('page error: ' + event.message));
window.addEventListener('unhandledrejection', (event) => log('page rejection: ' + (event.reason && event.reason.stack || event.reason)));
let driver;
socket.addEventListener('open', () => {
  try {
    const Pusher = window.Pusher;
    if (typeof Pusher !== 'function') throw new Error('the bundle defined no Pusher constructor');
    const host = {
      name: 'chromium',
      tls: true,
      version: ${JSON.stringify(banner ? banner[1] : null)},
      controlTimeoutMs: 20000,
      async trust() {
        return window.__harnessTLS ? null : (window.__harnessTLSReason || 'the case\\'s TLS listener is not trusted by this page');
      },
      endCase: async () => ({ reusable: true }),
    };
    driver = createDriver({ Pusher, host, emit: send, log });
    send({ __host: 'ready', version: driver.version });
  } catch (error) {
    send({ __host: 'fatal', text: String(error && error.stack || error) });
  }
});
socket.addEventListener('message', (event) => {
  const step = JSON.parse(event.data);
  if (step.__host === 'reload') { driver && driver.stop(); location.reload(); return; }
  if (step.__host === 'tls') { window.__harnessTLS = step.on; window.__harnessTLSReason = step.reason; return; }
  // Every case is a new app: pusher-js remembers the transport that last connected in
  // localStorage (pusherTransportTLS / pusherTransportNonTLS, src/core/strategies/
  // websocket_prioritized_cached_strategy.ts:108-140), which a page reload keeps.
  if (step.type === 'configure') { try { window.localStorage.clear(); } catch (e) { /* no storage */ } }
  driver.handle(step);
});
`;

await runBrowserHost({
  name: 'browser-host',
  title: 'pubnub-harness pusher-js driver',
  sdkPath,
  chromiumPath: argument('--chromium') || process.env.CHROMIUM || 'chromium',
  pageModule: PAGE_MODULE,
  modules: { '/pusher-core.mjs': path.join(here, 'pusher-core.mjs') },
  tlsOrigin: (step) => `${step.host}:${step.port}`,
});
