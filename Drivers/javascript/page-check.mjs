#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// Runs one of the harness's check pages (Fixtures/browser/*.html) in headless Chromium against a
// running mock and reports what the page found:
//
//   node Drivers/javascript/page-check.mjs --page Fixtures/browser/cors-check.html \
//       --mock http://127.0.0.1:8090 [--timeout SECONDS] [--chromium PATH] [--sdk BUNDLE]
//
// The page's folder is served from a loopback origin of its own (another port than the mock's,
// so every request the page makes to the mock is cross-origin and the browser applies CORS). The
// page gets the mock's origin as `?mock=`, runs its checks and POSTs them to `/result` of its own
// origin as `{"checks":[{"name","ok","detail"}]}`; `/log` lines are printed as they come. With
// --sdk, the bundle is served as `/sdk.js` (a page may load it; the check pages run without it).
//
// Exit: 0 when the page reported at least one check and all passed; 1 when one failed; 3 when the
// page reported nothing within the timeout (default 90 s) or Chromium could not start.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { startChromium } from './chromium.mjs';

function argument(name) {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

function fail(text, code = 3) {
  process.stderr.write(`page-check: ${text}\n`);
  process.exit(code);
}

const pagePath = argument('--page');
const mock = argument('--mock');
const timeoutSeconds = Number(argument('--timeout') || 90);
const chromiumPath = argument('--chromium') || process.env.CHROMIUM || 'chromium';
const sdkPath = argument('--sdk') || '';
if (!pagePath || !fs.existsSync(pagePath)) fail(`--page ${pagePath ?? '(missing)'}: no such page`, 2);
if (!mock || !/^https?:\/\/[^/]+$/.test(mock)) fail('--mock must be an origin such as http://127.0.0.1:8090', 2);
if (!(timeoutSeconds > 0 && timeoutSeconds <= 3600)) fail('--timeout must be 1-3600 seconds', 2);
if (sdkPath && !fs.statSync(sdkPath, { throwIfNoEntry: false })?.isFile()) fail(`--sdk ${sdkPath}: not a file`, 2);

const folder = path.dirname(path.resolve(pagePath));
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json' };

let finished = false;
let browser = null;
const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1');
  if (request.method === 'POST' && (url.pathname === '/result' || url.pathname === '/log')) {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => { if (body.length < 4 << 20) body += chunk; });
    request.on('end', () => {
      response.writeHead(204).end();
      if (url.pathname === '/log') { process.stdout.write(`page: ${body.slice(0, 2000)}\n`); return; }
      report(body);
    });
    return;
  }
  let file = null;
  if (url.pathname === '/sdk.js' && sdkPath) file = sdkPath;
  else {
    const name = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    // Only files directly in the page's folder: no traversal.
    if (/^[A-Za-z0-9._-]+$/.test(name) && !name.startsWith('.')) file = path.join(folder, name);
  }
  if (!file || !fs.existsSync(file)) { response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
  response.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
  response.end(fs.readFileSync(file));
});

function finish(code) {
  if (finished) return;
  finished = true;
  if (browser) browser.stop();
  server.close();
  process.exit(code);
}

function report(body) {
  let checks;
  try { checks = JSON.parse(body).checks; } catch (e) { checks = null; }
  if (!Array.isArray(checks) || checks.length === 0) {
    process.stdout.write(`page-check: the page reported no checks: ${body.slice(0, 300)}\n`);
    finish(1);
    return;
  }
  let failed = 0;
  for (const check of checks) {
    if (!check.ok) failed += 1;
    process.stdout.write(`${check.ok ? 'pass' : 'FAIL'}  ${check.name}${check.detail ? `: ${check.detail}` : ''}\n`);
  }
  process.stdout.write(`page-check: ${checks.length - failed} of ${checks.length} checks passed (${path.basename(pagePath)})\n`);
  finish(failed === 0 ? 0 : 1);
}

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  const url = `http://127.0.0.1:${port}/${path.basename(pagePath)}?mock=${encodeURIComponent(mock)}`;
  browser = startChromium({
    chromiumPath, url,
    onError: (error) => fail(`cannot start ${chromiumPath}: ${error.message}`),
    onExit: (code, tail) => { if (!finished) fail(`chromium exited (${code}) before the page reported: ${tail.split('\n').slice(-5).join(' | ')}`); },
  });
});

setTimeout(() => {
  if (!finished) {
    process.stderr.write(`page-check: the page reported nothing within ${timeoutSeconds} s\n`);
    finish(3);
  }
}, timeoutSeconds * 1000).unref();
process.on('SIGTERM', () => finish(3));
process.on('SIGINT', () => finish(3));
