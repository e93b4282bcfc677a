#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// Browser host of the JavaScript driver: `node Drivers/javascript/browser-host.mjs --sdk PATH`.
//
// The PubNub SDK runs in a headless Chromium page served from the host's own loopback origin
// (browser-bridge.mjs: the page, Chromium, the WebSocket bridge to stdin/stdout, TLS pinning,
// reloads between reused cases); the page loads the SDK bundle and driver-core.mjs.
//
//   --sdk PATH          the SDK bundle (dist/web/pubnub.js) or Drivers/javascript/mini-client.js
//                       (default: $PUBNUB_JS_SDK)
//   --chromium PATH     the browser (default: $CHROMIUM or chromium)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBrowserHost } from './browser-bridge.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function fail(text) {
  process.stderr.write(`browser-host: ${text}\n`);
  process.exit(3);
}

function argument(name) {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

const sdkPath = argument('--sdk') || process.env.PUBNUB_JS_SDK;
if (!sdkPath) fail('no SDK bundle: pass --sdk PATH (dist/web/pubnub.js or Drivers/javascript/mini-client.js)');
if (!fs.existsSync(sdkPath) || !fs.statSync(sdkPath).isFile()) fail(`--sdk ${sdkPath}: not a bundle file`);

// --- the page ---------------------------------------------------------------------------------

const PAGE_MODULE = `
import { createDriver } from '/driver-core.mjs';
const socket = new WebSocket('ws://' + location.host + '/bridge');
const send = (object) => { if (socket.readyState === 1) socket.send(JSON.stringify(object)); };
const log = (text) => send({ __host: 'log', text: String(text) });
window.addEventListener('error', (event) => log('page error: ' + event.message));
window.addEventListener('unhandledrejection', (event) => log('page rejection: ' + (event.reason && event.reason.stack || event.reason)));
let driver;
socket.addEventListener('open', () => {
  try {
    const PubNub = window.PubNub;
    if (typeof PubNub !== 'function') throw new Error('the bundle defined no PubNub constructor');
    const host = {
      name: 'chromium',
      canSign: false,
      bundleWithoutPAM: !PubNub.__harnessMiniClient,
      tls: true,
      controlTimeoutMs: 20000,
      async trust(pem, tls) {
        if (!tls) return null;
        return window.__harnessTLS ? null : (window.__harnessTLSReason || 'TLS is not available in this page');
      },
      endCase: async () => ({ reusable: true }),
    };
    driver = createDriver({ PubNub, host, emit: send, log });
    send({ __host: 'ready', version: driver.version });
  } catch (error) {
    send({ __host: 'fatal', text: String(error && error.stack || error) });
  }
});
socket.addEventListener('message', (event) => {
  const step = JSON.parse(event.data);
  if (step.__host === 'reload') { driver && driver.stop(); location.reload(); return; }
  if (step.__host === 'tls') { window.__harnessTLS = step.on; window.__harnessTLSReason = step.reason; return; }
  driver.handle(step);
});
`;

await runBrowserHost({
  name: 'browser-host',
  title: 'pubnub-harness JavaScript driver',
  sdkPath,
  chromiumPath: argument('--chromium') || process.env.CHROMIUM || 'chromium',
  pageModule: PAGE_MODULE,
  modules: { '/driver-core.mjs': path.join(here, 'driver-core.mjs') },
  tlsOrigin: (step) => step.origin,
});
