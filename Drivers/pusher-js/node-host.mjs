#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// Node host of the pusher-js driver: `node Drivers/pusher-js/node-host.mjs [--sdk PATH]`.
//
// Loads pusher-js's Node bundle (dist/node/pusher.js: CommonJS, self-contained, with tweetnacl)
// from --sdk or PUSHER_JS_SDK and speaks the Pusher operations of the JSON-lines driver protocol
// (docs/driver-protocol.md, "Pusher drivers") on stdin/stdout through pusher-core.mjs.
//
// TLS: the Node runtime makes its WebSocket with `new Client(url)` (faye-websocket, no options:
// src/runtimes/isomorphic/runtime.ts createWebSocket) and pusher-js has no option that reaches it,
// so the run's CA cannot be trusted: `tls` is not declared and a TLS case is answered
// `unsupported`.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createDriver } from './pusher-core.mjs';

function writeLine(object) {
  process.stdout.write(`${JSON.stringify(object)}\n`);
}

function log(text) {
  process.stderr.write(`${String(text).replace(/\s+$/, '')}\n`);
}

function fail(text) {
  log(`node-host: ${text}`);
  process.exit(3);
}

function argument(name) {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

// pusher-js's Logger writes with console.log when logToConsole is set; stdout is the protocol's.
console.log = (...args) => log(args.map(String).join(' '));
console.info = console.log;

const source = argument('--sdk') || process.env.PUSHER_JS_SDK;
if (!source) fail('no pusher-js bundle: pass --sdk PATH or set PUSHER_JS_SDK (pusher-js dist/node/pusher.js, or Drivers/pusher-js/mini-client.js)');
const resolved = path.resolve(source);
if (!fs.existsSync(resolved) || !fs.statSync(resolved).isFile()) fail(`${source}: no such bundle file`);

let Pusher;
try {
  Pusher = createRequire(import.meta.url)(resolved);
  if (Pusher && typeof Pusher !== 'function' && typeof Pusher.default === 'function') Pusher = Pusher.default;
} catch (error) {
  fail(`cannot load ${source}: ${String(error && error.message || error).split('\n')[0]}`);
}
if (typeof Pusher !== 'function') fail(`${source} does not export the Pusher constructor`);

function bundleVersion() {
  // The bundle's banner: "Pusher JavaScript Library vX.Y.Z".
  try {
    const head = fs.readFileSync(resolved, 'utf8').slice(0, 400);
    const m = /Pusher JavaScript Library v(\d+\.\d+\.\d+\S*)/.exec(head);
    return m ? m[1] : null;
  } catch (e) { return null; }
}

const sockets = () => process.getActiveResourcesInfo().filter((name) => /TCP|TLS|Socket/i.test(name) && name !== 'TTYWrap').length;
let baseline = 0;

const host = {
  name: 'node',
  tls: false,
  controlTimeoutMs: 15000,
  version: bundleVersion(),
  debug: process.env.PUSHER_JS_DEBUG === '1',
  async trust() {
    return 'pusher-js in Node opens its WebSocket without TLS options (faye-websocket Client(url), src/runtimes/isomorphic/runtime.ts createWebSocket): the run\'s CA cannot be trusted';
  },
  async endCase() {
    // The client is disconnected (pusher-core stopClient): its socket closes; wait until the
    // process has no socket beyond those it had before the first case (at most 3 s).
    const deadline = Date.now() + 3000;
    let detail = null;
    for (;;) {
      const extra = sockets() - baseline;
      if (extra <= 0) return { reusable: true };
      detail = `${extra} socket(s) still open (${process.getActiveResourcesInfo().join(', ')})`;
      if (Date.now() > deadline) return { reusable: false, detail };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },
};

const driver = createDriver({ Pusher, host, emit: writeLine, log });
baseline = sockets();

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let pending = Promise.resolve();
input.on('line', (line) => {
  if (!line.trim()) return;
  let step;
  try { step = JSON.parse(line); } catch (error) { log(`node-host: unreadable line: ${line.slice(0, 200)}`); return; }
  if (step.type === 'configure' || step.type === 'close' || step.type === 'hello') {
    // control requests run in order, after the previous control request
    pending = pending.then(() => driver.handle(step));
    return;
  }
  // operations wait for the control request before them (never for each other)
  pending.then(() => driver.handle(step));
});

input.on('close', () => {
  driver.stop();
  const bye = setTimeout(() => process.exit(0), 300);
  if (bye.unref) bye.unref();
});
