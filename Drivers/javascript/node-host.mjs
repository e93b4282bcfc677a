#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// Node host of the JavaScript driver: `node Drivers/javascript/node-host.mjs`.
//
// Loads the PubNub JavaScript SDK from PUBNUB_JS_SDK (a bundle file such as dist/web/pubnub.js,
// a CommonJS file, or a package folder) or else `pubnub` from node_modules (the working
// directory's, then this folder's), and speaks the JSON-lines driver protocol
// (docs/driver-protocol.md) on stdin/stdout through driver-core.mjs.
//
// Transport: the web bundle sends every request with the global `fetch` (Node's undici). TLS
// trust of the run's CA cannot come from NODE_EXTRA_CA_CERTS (read once at start-up, before the
// CA is known), so each case gets its own undici Agent with `connect.ca` installed as the global
// dispatcher (the constructor is the one of Node's built-in global Agent). The package build
// (lib/node) sends through node-fetch with its own https.Agent: there, TLS is answered
// `unsupported` unless https.globalAgent can carry the CA (see trust()).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import https from 'node:https';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDriver } from './driver-core.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function writeLine(object) {
  process.stdout.write(`${JSON.stringify(object)}\n`);
}

function log(text) {
  process.stderr.write(`${String(text).replace(/\s+$/, '')}\n`);
}

// --- timers of a case (ended at a reusing close) --------------------------------------------------

const caseTimers = new Set();
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;
let trackTimers = false;

globalThis.setTimeout = function trackedSetTimeout(fn, ms, ...args) {
  if (!trackTimers || typeof fn !== 'function') return realSetTimeout(fn, ms, ...args);
  const handle = realSetTimeout((...a) => { caseTimers.delete(handle); fn(...a); }, ms, ...args);
  caseTimers.add(handle);
  return handle;
};
globalThis.clearTimeout = function trackedClearTimeout(handle) {
  caseTimers.delete(handle);
  return realClearTimeout(handle);
};
globalThis.setInterval = function trackedSetInterval(fn, ms, ...args) {
  if (!trackTimers) return realSetInterval(fn, ms, ...args);
  const handle = realSetInterval(fn, ms, ...args);
  caseTimers.add(handle);
  return handle;
};
globalThis.clearInterval = function trackedClearInterval(handle) {
  caseTimers.delete(handle);
  return realClearInterval(handle);
};

// --- what a browser bundle expects of its global scope ------------------------------------------

function browserShims() {
  browserFetchErrors();
  fileReaderShim();
  if (typeof globalThis.window === 'undefined') globalThis.window = globalThis;
  if (typeof globalThis.addEventListener !== 'function') globalThis.addEventListener = () => {};
  if (typeof globalThis.removeEventListener !== 'function') globalThis.removeEventListener = () => {};
  if (typeof globalThis.document === 'undefined') {
    // WebTransport.getOriginalFetch looks for an iframe's unpatched fetch and falls back to the
    // global `fetch` when there is no contentWindow (dist/web/pubnub.js, getOriginalFetch).
    globalThis.document = {
      querySelector: () => null,
      createElement: () => ({ style: {} }),
      body: { appendChild: () => {} },
    };
  }
}

// Browsers reject a failed fetch with TypeError('Failed to fetch') (Chromium) or 'Load failed'
// (Safari), which is what the web bundle's classifier looks for (src/errors/pubnub-api-error.ts:64-67:
// any other TypeError becomes PNBadRequestCategory). Node's undici says TypeError('fetch failed'):
// the host gives the bundle the browser's message, keeping undici's cause, so that it classifies a
// refused or reset connection as a browser user's client would.
function browserFetchErrors() {
  const nodeFetch = globalThis.fetch;
  if (typeof nodeFetch !== 'function' || nodeFetch.__harness) return;
  const wrapped = function fetch(input, init) {
    return nodeFetch(input, init).catch((error) => {
      if (error && error.name === 'TypeError' && error.message === 'fetch failed') {
        const browserError = new TypeError('Failed to fetch', { cause: error.cause });
        throw browserError;
      }
      throw error;
    });
  };
  wrapped.__harness = true;
  globalThis.fetch = wrapped;
}

// FileReader (files with a crypto module: the web bundle reads a Blob with it) does not exist in
// Node 20; a minimal one over Blob.arrayBuffer/text.
function fileReaderShim() {
  if (typeof globalThis.FileReader !== 'undefined') return;
  globalThis.FileReader = class FileReader {
    constructor() { this.result = null; this.onload = null; this.onerror = null; this.readyState = 0; }
    addEventListener(name, fn) { this[`on${name}`] = fn; }
    _read(blob, how) {
      Promise.resolve(how(blob)).then((result) => {
        this.result = result; this.readyState = 2;
        if (this.onload) this.onload({ target: this });
        if (this.onloadend) this.onloadend({ target: this });
      }, (error) => { this.error = error; if (this.onerror) this.onerror({ target: this }); });
    }
    readAsArrayBuffer(blob) { this._read(blob, (b) => b.arrayBuffer()); }
    readAsText(blob) { this._read(blob, (b) => b.text()); }
    readAsBinaryString(blob) { this._read(blob, async (b) => Buffer.from(await b.arrayBuffer()).toString('latin1')); }
    readAsDataURL(blob) { this._read(blob, async (b) => `data:${b.type || 'application/octet-stream'};base64,${Buffer.from(await b.arrayBuffer()).toString('base64')}`); }
  };
}

// --- loading the SDK ----------------------------------------------------------------------------

function loadSDK() {
  const requireHere = createRequire(path.join(process.cwd(), 'noop.js'));
  const requireOwn = createRequire(import.meta.url);
  const source = process.env.PUBNUB_JS_SDK;
  const attempts = [];
  if (source) {
    const resolved = path.resolve(source);
    if (!fs.existsSync(resolved)) return { error: `PUBNUB_JS_SDK=${source}: no such file or folder` };
    attempts.push(resolved);
  } else {
    attempts.push('pubnub');
  }
  for (const target of attempts) {
    for (const req of target === 'pubnub' ? [requireHere, requireOwn] : [requireOwn]) {
      try {
        browserShims();
        let loaded = req(target);
        if (loaded && loaded.default && typeof loaded !== 'function') loaded = loaded.default;
        if (typeof loaded !== 'function') return { error: `${target} does not export the PubNub constructor` };
        const isFolder = target !== 'pubnub' && fs.statSync(target).isDirectory();
        return { PubNub: loaded, source: target === 'pubnub' ? req.resolve('pubnub') : target, packageBuild: isFolder || target === 'pubnub' };
      } catch (error) {
        if (target !== 'pubnub') return { error: `cannot load PUBNUB_JS_SDK=${source}: ${error.message.split('\n')[0]}` };
      }
    }
  }
  return { error: 'no PubNub JavaScript SDK: set PUBNUB_JS_SDK to dist/web/pubnub.js or a package folder, or install `pubnub` in node_modules' };
}

const sdk = loadSDK();
if (sdk.error) {
  log(`node-host: ${sdk.error}`);
  process.exit(3);
}

// --- transport: one undici Agent per case ---------------------------------------------------------

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
let Agent = null;
let agent = null;

async function undiciAgentClass() {
  if (Agent) return Agent;
  try {
    await fetch('data:,');
    const current = globalThis[DISPATCHER];
    if (current && typeof current.constructor === 'function') Agent = current.constructor;
  } catch (error) {
    log(`node-host: no undici dispatcher: ${error.message}`);
  }
  return Agent;
}

async function newAgent(ca) {
  const AgentClass = await undiciAgentClass();
  if (!AgentClass) return false;
  if (agent) { try { agent.destroy(); } catch (e) { /* already gone */ } }
  agent = new AgentClass(ca ? { connect: { ca: [ca] } } : {});
  globalThis[DISPATCHER] = agent;
  return true;
}

let trustedPEM = null;

const host = {
  name: 'node',
  canSign: true,
  tls: true,
  controlTimeoutMs: 15000,
  sdkSource: sdk.source,
  // A bundle file is the web build (dist/web/pubnub.js): no grant operations, no request signing.
  bundleWithoutPAM: !sdk.packageBuild && !sdk.PubNub.__harnessMiniClient,
  async trust(pem) {
    if (!pem) return 'no caPEM in configure';
    trustedPEM = pem;
    if (sdk.packageBuild) {
      // The package build's NodeTransport makes its own https.Agent per origin; the global agent's
      // options only reach requests without one. Best effort: the CA goes into the global agent.
      https.globalAgent.options.ca = [pem];
      return null;
    }
    return null;
  },
  async endCase() {
    // The client is destroyed (driver-core stopClient): end every connection and timer it left.
    trackTimers = false;
    let detail = null;
    try {
      if (agent) await agent.destroy();
    } catch (e) { /* sockets already closed */ }
    agent = null;
    for (const handle of caseTimers) { realClearTimeout(handle); realClearInterval(handle); }
    caseTimers.clear();
    const deadline = Date.now() + 3000;
    for (let round = 0; round < 60; round += 1) {
      const sockets = process.getActiveResourcesInfo().filter((name) => /TCP|TLS|Socket/i.test(name) && name !== 'TTYWrap');
      const extra = sockets.length - baselineSockets;
      if (extra <= 0) return { reusable: true };
      detail = `${extra} socket(s) still open (${sockets.join(', ')})`;
      if (Date.now() > deadline) break;
      await new Promise((resolve) => realSetTimeout(resolve, 50));
    }
    return { reusable: false, detail };
  },
};

let baselineSockets = 0;

const driver = createDriver({ PubNub: sdk.PubNub, host, emit: writeLine, log });
baselineSockets = process.getActiveResourcesInfo().filter((name) => /TCP|TLS|Socket/i.test(name) && name !== 'TTYWrap').length;

// --- the request loop -------------------------------------------------------------------------

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let pending = Promise.resolve();

input.on('line', (line) => {
  if (!line.trim()) return;
  let step;
  try {
    step = JSON.parse(line);
  } catch (error) {
    log(`node-host: unreadable line: ${line.slice(0, 200)}`);
    return;
  }
  if (step.type === 'configure' || step.type === 'close' || step.type === 'hello') {
    // control requests run in order, after the previous control request
    pending = pending.then(async () => {
      if (step.type === 'configure') {
        trackTimers = false;
        if (!(await newAgent(step.caPEM || trustedPEM))) log('node-host: default dispatcher kept');
        trackTimers = true;
      }
      await driver.handle(step);
      if (step.type === 'close' && !step.reuse) trackTimers = false;
    });
    return;
  }
  // operations wait for the control request before them (never for each other)
  pending.then(() => driver.handle(step));
});

input.on('close', () => {
  driver.stop();
  const bye = realSetTimeout(() => process.exit(0), 200);
  if (bye.unref) bye.unref();
  Promise.resolve(agent && agent.destroy()).catch(() => {}).finally(() => process.exit(0));
});
