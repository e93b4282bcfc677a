#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// Checks the pusher-js driver's mapping of the newer Pusher features (sign-in, user events, the
// watchlist, encrypted channels, cache misses) against a small scripted server of its own, until
// the harness's server and catalog have them:
//
//   node Drivers/pusher-js/contract-check.mjs -- node Drivers/pusher-js/node-host.mjs --sdk PATH
//   node Drivers/pusher-js/contract-check.mjs -- node Drivers/pusher-js/browser-host.mjs --sdk PATH
//
// The scripted server answers each client message with fixed frames (it checks no signature and
// is no Pusher server): connection_established; subscription_succeeded for every subscribe,
// then a pusher:cache_miss for `cache-…`, an encrypted event for `private-encrypted-…`, a `note`
// for `#server-to-user-ann`; pusher:signin_success plus a watchlist event for pusher:signin. Its
// HTTP side: /auth (channel auth: `shared_secret` for encrypted channels), /user-auth (sign-in),
// /user-auth-refused (403), with CORS for the Chromium page; for app key `nows` it refuses the
// WebSocket upgrade and serves pusher-js's xhr_streaming transport instead (HTTP fallback). The encrypted event is a fixed
// secretbox vector (key, nonce, ciphertext below; plaintext `{"secret":"plain","n":7}`).
//
// Prints one line per check; exit 0 when all passed (checks of capabilities the driver does not
// declare are skipped), 1 with the reason otherwise, 2 on bad arguments.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const split = process.argv.indexOf('--');
const command = split > 0 ? process.argv.slice(split + 1) : [];
if (command.length === 0) {
  process.stderr.write('contract-check: usage: contract-check.mjs -- DRIVER COMMAND...\n');
  process.exit(2);
}

let WebSocketServer;
for (const name of ['ws', '/usr/share/nodejs/ws']) {
  try { const ws = require(name); WebSocketServer = ws.WebSocketServer || ws.Server; if (WebSocketServer) break; } catch (e) { /* next */ }
}
if (!WebSocketServer) { process.stderr.write('contract-check: no WebSocket library (node-ws)\n'); process.exit(2); }

const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const NONCE = 'ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7';
const CIPHERTEXT = 'B3qAZNXDhwLvx0zfkI8oIHmb6qxZxKudkscB5FvlynYchhrJxpx8Zg==';
const USER_DATA = JSON.stringify({ id: 'ann', watchlist: ['bob'] });

// --- the scripted server ------------------------------------------------------------------------

// The HTTP transports (pusher-js src/core/http/http_socket.ts): POST …/app/KEY/NNN/SESSION/xhr_streaming
// is a chunked stream of lines ("o" open, "a[…]" messages, each a Pusher message as JSON text),
// POST …/xhr_send carries the client's messages as a JSON array of message texts.
const streams = new Map(); // session → response
const streamSend = (session, message) => {
  const response = streams.get(session);
  if (process.env.CONTRACT_DEBUG) process.stderr.write(`stream ${session} ${response ? 'open' : 'gone'} ${message.event}\n`);
  if (response) response.write(`a${JSON.stringify([JSON.stringify(message)])}\n`);
};
const httpEventsSeen = [];

function httpTransport(request, response, headers, body) {
  const m = /^\/pusher\/app\/[^/]+\/(\d+\/[^/?]+)\/(xhr_streaming|xhr_send)/.exec(request.url);
  if (!m) return false;
  const [, session, kind] = m;
  if (process.env.CONTRACT_DEBUG) process.stderr.write(`http ${kind} ${session} ${body.slice(0, 300)}\n`);
  if (kind === 'xhr_streaming') {
    // Chromium holds back a text/plain stream until it has sniffed enough bytes of it: either
    // `X-Content-Type-Options: nosniff` or a prefix of 1 KiB or more lets each line through at once
    // (nosniff alone was checked to suffice); both are sent, as HTTP streaming servers do.
    response.writeHead(200, { ...headers, 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' });
    streams.set(session, response);
    response.write(`${'h'.repeat(2048)}\no\n`);
    streamSend(session, { event: 'pusher:connection_established', data: JSON.stringify({ socket_id: '9.9', activity_timeout: 120 }) });
    response.on('close', () => { if (streams.get(session) === response) streams.delete(session); });
    return true;
  }
  response.writeHead(204, headers);
  response.end();
  let items = [];
  try { items = JSON.parse(body); } catch (e) { /* heartbeat or junk */ }
  for (const text of items) {
    const message = JSON.parse(text);
    httpEventsSeen.push(message.event);
    if (message.event === 'pusher:subscribe') {
      const channel = message.data.channel;
      streamSend(session, { event: 'pusher_internal:subscription_succeeded', channel, data: '{}' });
      streamSend(session, { event: 'over-http', channel, data: JSON.stringify({ via: 'xhr_streaming' }) });
    }
  }
  return true;
}

const server = http.createServer((request, response) => {
  const headers = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': 'POST, OPTIONS' };
  if (request.method === 'OPTIONS') { response.writeHead(204, headers); response.end(); return; }
  let body = '';
  request.on('data', (chunk) => { body += chunk; });
  request.on('end', () => {
    if (httpTransport(request, response, headers, body)) return;
    const form = new URLSearchParams(body);
    const answer = (status, object) => {
      response.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
      response.end(JSON.stringify(object));
    };
    if (request.url === '/auth') {
      const channel = form.get('channel_name') || '';
      const reply = { auth: `k:${'0'.repeat(64)}` };
      if (channel.startsWith('private-encrypted-')) reply.shared_secret = KEY;
      return answer(200, reply);
    }
    if (request.url === '/user-auth') return answer(200, { auth: `k:${'0'.repeat(64)}`, user_data: USER_DATA });
    if (request.url === '/user-auth-refused') return answer(403, { error: 'refused' });
    return answer(404, { error: 'no such route' });
  });
});

// App key `nows`: the WebSocket upgrade is refused (HTTP 400), for the fallback check.
const sockets = new WebSocketServer({ server, verifyClient: (info) => !info.req.url.startsWith('/app/nows') });
let socketCount = 0;
sockets.on('connection', (ws) => {
  socketCount += 1;
  const send = (event, data, channel) => ws.send(JSON.stringify({ event, ...(channel ? { channel } : {}), ...(data === undefined ? {} : { data: typeof data === 'string' ? data : JSON.stringify(data) }) }));
  send('pusher:connection_established', { socket_id: `${socketCount}.${socketCount}`, activity_timeout: 120 });
  ws.on('message', (raw) => {
    let message;
    try { message = JSON.parse(String(raw)); } catch (e) { return; }
    const data = typeof message.data === 'string' ? JSON.parse(message.data) : message.data || {};
    if (message.event === 'pusher:subscribe') {
      const channel = data.channel;
      send('pusher_internal:subscription_succeeded', {}, channel);
      if (channel.startsWith('cache-')) send('pusher:cache_miss', undefined, channel);
      if (channel.startsWith('private-encrypted-')) send('secret-news', { nonce: NONCE, ciphertext: CIPHERTEXT }, channel);
      if (channel === '#server-to-user-ann') send('note', { n: 1 }, channel);
    } else if (message.event === 'pusher:signin') {
      send('pusher:signin_success', { user_data: data.user_data });
      send('pusher_internal:watchlist_events', { events: [{ name: 'online', user_ids: ['bob'] }] });
    } else if (message.event === 'pusher:ping') {
      send('pusher:pong', {});
    }
  });
});

await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;

// --- the driver ---------------------------------------------------------------------------------

const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = [];
let waiters = [];
let buffer = '';
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    try { lines.push(JSON.parse(line)); } catch (e) { continue; }
    waiters = waiters.filter((w) => !w());
  }
});

let nextID = 1;
function request(object) {
  const id = nextID++;
  child.stdin.write(`${JSON.stringify({ id, ...object })}\n`);
  return waitFor((l) => l.id === id, `a reply to ${object.type}`, 30000);
}

function waitFor(match, what, ms = 5000) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = lines.find(match);
      if (found) { clearTimeout(timer); resolve(found); return true; }
      return false;
    };
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms (driver lines: ${JSON.stringify(lines.slice(-6))})`)), ms);
    if (!check()) waiters.push(check);
  });
}

let failures = 0;
let passed = 0;
async function check(name, run) {
  try {
    await run();
    passed += 1;
    process.stdout.write(`contract-check: ok    ${name}\n`);
  } catch (error) {
    failures += 1;
    process.stdout.write(`contract-check: FAIL  ${name}: ${error.message}\n`);
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const base = (userAuthPath) => ({ type: 'configure', host: '127.0.0.1', port, appKey: 'k', appSecret: 's',
  authEndpoint: `http://127.0.0.1:${port}/auth`, userAuthEndpoint: `http://127.0.0.1:${port}${userAuthPath}`,
  userID: 'ann', userInfo: { name: 'ann' }, reconnectDelayMs: 1000, protocolVersion: 7 });

try {
  const hello = await request({ type: 'hello' });
  const caps = new Set((hello.data && hello.data.capabilities) || []);
  const configured = await request(base('/user-auth'));
  if (configured.type !== 'result') throw new Error(`configure: ${JSON.stringify(configured)}`);
  await request({ type: 'connect' });
  await check('connected', () => waitFor((l) => l.type === 'connected', 'connected line'));

  if (caps.has('userSignin')) {
    const reply = await request({ type: 'signin' });
    await check('signin → result', async () => { if (reply.type !== 'result') throw new Error(JSON.stringify(reply)); });
    await check('pusher:signin_success → signedIn ann', () => waitFor((l) => l.type === 'signedIn' && l.userID === 'ann', 'signedIn line'));
    await check('#server-to-user-ann note → userEvent', () => waitFor((l) => l.type === 'userEvent' && l.event === 'note' && same(l.data, { n: 1 }), 'userEvent line'));
  } else process.stdout.write('contract-check: skip  signin (userSignin not declared)\n');
  if (caps.has('watchlist')) {
    await check('watchlist_events → watchlist online [bob]', () => waitFor((l) => l.type === 'watchlist' && l.name === 'online' && same(l.userIDs, ['bob']), 'watchlist line'));
  } else process.stdout.write('contract-check: skip  watchlist (not declared)\n');
  if (caps.has('encryptedChannels')) {
    await request({ type: 'subscribe', channel: 'private-encrypted-x' });
    await check('private-encrypted-x subscribed', () => waitFor((l) => l.type === 'subscribed' && l.channel === 'private-encrypted-x', 'subscribed line'));
    await check('encrypted event → decrypted data', () => waitFor((l) => l.type === 'event' && l.channel === 'private-encrypted-x' && l.event === 'secret-news'
      && same(l.data, { secret: 'plain', n: 7 }), 'decrypted event line'));
  } else process.stdout.write('contract-check: skip  encrypted channels (encryptedChannels not declared)\n');
  if (caps.has('cacheMiss')) {
    await request({ type: 'subscribe', channel: 'cache-x' });
    await check('pusher:cache_miss → event', () => waitFor((l) => l.type === 'event' && l.channel === 'cache-x' && l.event === 'pusher:cache_miss', 'cache_miss event line'));
  }

  if (caps.has('userSignin')) {
    // A refused sign-in, in a new case (reuse when offered, else the same process is told to close).
    const closed = await request({ type: 'close', reuse: Boolean(hello.data && hello.data.reuse) });
    if (hello.data && hello.data.reuse && closed.data && closed.data.reusable === false) throw new Error(`not reusable: ${JSON.stringify(closed.data)}`);
    if (hello.data && hello.data.reuse) {
      const before = lines.length;
      await request(base('/user-auth-refused'));
      await request({ type: 'connect' });
      await waitFor((l, i) => l.type === 'connected' && lines.indexOf(l) >= before, 'connected line (second case)');
      await request({ type: 'signin' });
      await check('refused sign-in → error line', () => waitFor((l) => lines.indexOf(l) >= before && l.type === 'error' && l.code === 403, 'error line with 403'));
    }
  }
  if (caps.has('httpFallback')) {
    // A new case whose WebSocket upgrade is refused: pusher-js's default strategy starts the HTTP
    // transports after a delay (src/runtimes/isomorphic/default_strategy.ts: 5 s without TLS).
    await request({ type: 'close', reuse: Boolean(hello.data && hello.data.reuse) });
    if (hello.data && hello.data.reuse) {
      const before = lines.length;
      await request({ ...base('/user-auth'), appKey: 'nows' });
      const started = Date.now();
      await request({ type: 'connect' });
      await check('refused upgrade → connected over HTTP', async () => {
        await waitFor((l) => lines.indexOf(l) >= before && l.type === 'connected', 'connected line over HTTP', 15000);
        process.stdout.write(`contract-check:       (connected ${Date.now() - started} ms after connect)\n`);
      });
      await request({ type: 'subscribe', channel: 'fallback-news' });
      await check('event over xhr_streaming', () => waitFor((l) => lines.indexOf(l) >= before && l.type === 'event' && l.event === 'over-http'
        && same(l.data, { via: 'xhr_streaming' }), 'event line over HTTP'));
    }
  } else process.stdout.write('contract-check: skip  HTTP fallback (httpFallback not declared)\n');
  await request({ type: 'close' });
} catch (error) {
  failures += 1;
  process.stdout.write(`contract-check: FAIL  ${error.message}\n`);
}
child.stdin.end();
const exited = new Promise((resolve) => child.on('exit', resolve));
const timer = setTimeout(() => child.kill('SIGTERM'), 5000);
await exited;
clearTimeout(timer);
server.close();
sockets.close();
process.stdout.write(`contract-check: ${passed} passed, ${failures} failed\n`);
process.exit(failures ? 1 : 0);
