// SPDX-License-Identifier: MIT
//
// pubnub-harness driver core for pusher-js (8.x), independent of its host.
//
// It speaks the Pusher operations and events of docs/driver-protocol.md ("Pusher drivers") and
// maps each onto pusher-js's public API. A host (node-host.mjs: Node; browser-host.mjs: a
// Chromium page) loads the bundle, reads request lines and writes what `emit` is given:
//
//   import { createDriver } from './pusher-core.mjs';
//   const driver = createDriver({ Pusher, host, emit, log });
//   driver.handle(requestObject);            // replies and events arrive through emit(object)
//
// `host` describes the runtime:
//   name             'node' | 'chromium'
//   tls              whether `wss` with the run's CA can be offered (capability `tls`)
//   trust(pem)       async: null when the case's TLS listener is trusted, else the reason
//   endCase()        async: after the client is disconnected, ends what is left of the case
//                    (reuse); returns {reusable, detail}
//   version          the bundle's version when the host read it from the file (else asked of it)
//   debug            true: pusher-js's own log (Pusher.log, every level) goes to `log`
//
// pusher-js facts cite its sources (src/...) of release 8.6.0 as file:line.

export class Unsupported extends Error {}

const PROTOCOL = 'pusher';

// --- what the loaded bundle can do ----------------------------------------------------------------

function withoutAutoConnect(Pusher, make) {
  // A Pusher object connects in its constructor once the runtime is ready (src/core/pusher.ts:137
  // `if (Pusher.isReady) this.connect()`); the protocol connects on `connect`. The public static
  // `isReady` is false while the object is made, then put back.
  // The with-encryption class extends Pusher and its constructor reads the base's static, so it
  // is set on the class that owns it.
  let owner = Pusher;
  while (owner && !Object.prototype.hasOwnProperty.call(owner, 'isReady')) owner = Object.getPrototypeOf(owner);
  if (!owner) owner = Pusher;
  const ready = owner.isReady;
  owner.isReady = false;
  try { return make(); } finally { owner.isReady = ready; }
}

function forget(Pusher, client) {
  // Pusher.instances (public static) holds every object ever made: Pusher.ready() would connect them.
  if (Array.isArray(Pusher.instances)) {
    const at = Pusher.instances.indexOf(client);
    if (at >= 0) Pusher.instances.splice(at, 1);
  }
}

const probes = new WeakMap(); // Pusher constructor → what its probe object showed
const wrappedRuntimes = new WeakSet(); // Pusher.Runtime objects whose createWebSocket is watched
let socketWatch = null; // called with every WebSocket pusher-js makes

function probe(Pusher) {
  if (probes.has(Pusher)) return probes.get(Pusher);
  const facts = { version: 'unknown', nacl: false };
  try {
    const client = withoutAutoConnect(Pusher, () => new Pusher('probe', { cluster: 'mt1', wsHost: '127.0.0.1', wsPort: 9, enableStats: false }));
    // The version is given to the timeline (src/core/pusher.ts:79 `version: Defaults.VERSION`).
    const version = client.timeline && client.timeline.options && client.timeline.options.version;
    if (version) facts.version = String(version);
    // Encrypted channels need tweetnacl in the config: pusher-with-encryption sets options.nacl
    // (src/core/pusher-with-encryption.ts:11), the Node bundle too; src/core/channels/channels.ts:68
    // refuses `private-encrypted-` channels without it.
    facts.nacl = Boolean(client.config && client.config.nacl);
    forget(Pusher, client);
  } catch (e) {
    facts.error = String(e && e.message || e);
  }
  probes.set(Pusher, facts);
  return facts;
}

function capabilities(Pusher, host, facts) {
  if (Pusher.__harnessMiniClient) return Pusher.__harnessMiniClient.capabilities.slice();
  const caps = ['privateChannels', 'presence', 'clientEvents', 'reconnection',
    // activityTimeout / pongTimeout options (src/core/connection/connection_manager.ts:237-256)
    'clientPing',
    // pusher:cache_miss reaches the channel's bind_global (src/core/channels/channel.ts:77-87, any event not `pusher_internal:`)
    'cacheMiss',
    // pusher_internal:subscription_count → 'pusher:subscription_count' (channel.ts:100-106)
    'subscriptionCount'];
  if (host.tls) caps.push('tls');
  if (facts.nacl) caps.push('encryptedChannels');
  // pusher.signin() and the user facade (src/core/user.ts), the watchlist (src/core/watchlist.ts):
  // every 8.x bundle has them.
  caps.push('userSignin', 'watchlist');
  // xhr_streaming and xhr_polling are in both runtimes' transport tables
  // (src/runtimes/isomorphic/transports/transports.ts, src/runtimes/web/transports/transports.ts);
  // Node's isXHRSupported() is true (src/runtimes/isomorphic/runtime.ts:36), Chromium's XHR has
  // withCredentials (src/runtimes/web/runtime.ts:130-135).
  caps.push('httpFallback');
  return caps;
}

const PROFILE = {
  // src/core/connection/protocol/protocol.ts:104-128 (getCloseAction): 4000 → TLS only, 4001-4099
  // refused, 4100-4199 back off (1 s), 4200-4299 retry at once, 1002-1004 back off.
  closeCodes: 'close-codes',
  // After a reconnect every channel is subscribed again (src/core/pusher.ts:102 subscribeAll on
  // 'connected'), each private one authorized again with the new socket id (channel.ts:109-120).
  resubscribe: 'reauthorize',
};

// --- the driver -------------------------------------------------------------------------------

/** A driver over the pusher-js constructor `Pusher`. */
export function createDriver({ Pusher, host, emit, log }) {
  const facts = probe(Pusher);
  const version = host.version || facts.version;
  let client = null;
  let caseNumber = 0; // the gate: callbacks of an older case write nothing
  let lossReported = false; // a socket close was reported since the last `connected`
  const boundChannels = new WeakMap(); // channel object → the case number its bindings report to

  const say = (text) => { if (log) log(text); };
  // pusher-js's own log (every level) to the host's log, when the host asks (node-host: PUSHER_JS_DEBUG=1).
  if (host.debug && !Pusher.log) Pusher.log = (message) => say(`pusher-js: ${message}`);

  // The close code pusher-js saw: each WebSocket it opens comes from Runtime.createWebSocket
  // (public static Pusher.Runtime; src/runtimes/isomorphic/runtime.ts createWebSocket, called by
  // src/runtimes/*/transports/transports.ts getSocket). The driver watches the close event of
  // every socket that opened, as pusher-js's transport does (src/core/transports/
  // transport_connection.ts onClose); the object and its behaviour are unchanged.
  const runtime = Pusher.Runtime;
  if (runtime && typeof runtime.createWebSocket === 'function' && !wrappedRuntimes.has(runtime)) {
    const original = runtime.createWebSocket;
    runtime.createWebSocket = function createWebSocket(url) {
      const socket = original.call(this, url);
      try { if (socketWatch) socketWatch(socket); } catch (e) { /* watching never breaks the client */ }
      return socket;
    };
    wrappedRuntimes.add(runtime);
  }
  const watchers = new Set();
  // The latest driver made watches the sockets (one driver per process or page).
  socketWatch = (socket) => { for (const watcher of watchers) watcher(socket); };

  function caseEmit(number, object) {
    if (number === caseNumber) emit(object);
  }

  function bindSocketWatch(number) {
    const watcher = (socket) => {
      if (number !== caseNumber || !socket || typeof socket.addEventListener !== 'function') return;
      let opened = false;
      socket.addEventListener('open', () => { opened = true; });
      socket.addEventListener('close', (event) => {
        if (!opened) return; // never connected: no connection ended
        lossReported = true;
        const code = event && typeof event.code === 'number' ? event.code : null;
        caseEmit(number, { type: 'disconnected', code });
      });
    };
    watchers.clear();
    watchers.add(watcher);
  }

  function options(f) {
    const tlsCase = Boolean(f.tls);
    const o = {
      cluster: 'mt1',
      wsHost: f.host,
      wsPort: f.port,
      wssPort: f.port,
      // The HTTP transports (fallback) go to the same listener.
      httpHost: f.host,
      httpPort: f.port,
      httpsPort: f.port,
      forceTLS: tlsCase,
      enableStats: false,
      // pusher-js's own transports without the ones that load code from a CDN (sockjs) or need
      // another origin (xdr): WebSocket first, the HTTP ones after it as the default strategy
      // orders them (src/runtimes/isomorphic/default_strategy.ts:120-140).
      enabledTransports: ['ws', 'xhr_streaming', 'xhr_polling'],
      channelAuthorization: { endpoint: f.authEndpoint, transport: 'ajax' },
    };
    if (f.userAuthEndpoint) o.userAuthentication = { endpoint: f.userAuthEndpoint, transport: 'ajax' };
    if (f.activityTimeoutMs != null) o.activityTimeout = f.activityTimeoutMs;
    if (f.pongTimeoutMs != null) o.pongTimeout = f.pongTimeoutMs;
    return o;
  }

  function memberIDs(channel) {
    const ids = [];
    if (channel.members && typeof channel.members.each === 'function') channel.members.each((m) => ids.push(String(m.id)));
    return ids;
  }

  function bindChannel(number, channel) {
    if (boundChannels.get(channel) === number) return;
    boundChannels.set(channel, number);
    const name = channel.name;
    const isPresence = name.startsWith('presence-');
    const bound = new Set();
    // bind_global sees every event of the channel but without the metadata (user_id) that named
    // callbacks get (src/core/events/dispatcher.ts emit: global callbacks first, with (name, data));
    // the named callbacks are looked up after them, so a binding made here for a new name gets this
    // very event with its metadata.
    channel.bind_global((event, data) => {
      if (number !== caseNumber) return;
      switch (event) {
        case 'pusher:subscription_succeeded':
          caseEmit(number, { type: 'subscribed', channel: name });
          if (isPresence) caseEmit(number, { type: 'members', channel: name, userIDs: memberIDs(channel) });
          return;
        case 'pusher:subscription_error': {
          const status = data && data.status != null ? `${data.status} ` : '';
          const text = data && (data.error || data.type) ? `${data.type || ''} ${status}${data.error || ''}`.trim() : String(data);
          caseEmit(number, { type: 'subscriptionError', channel: name, message: text });
          return;
        }
        case 'pusher:member_added':
          caseEmit(number, { type: 'memberAdded', channel: name, userID: String(data && data.id) });
          caseEmit(number, { type: 'members', channel: name, userIDs: memberIDs(channel) });
          return;
        case 'pusher:member_removed':
          caseEmit(number, { type: 'memberRemoved', channel: name, userID: String(data && data.id) });
          caseEmit(number, { type: 'members', channel: name, userIDs: memberIDs(channel) });
          return;
        case 'pusher:cache_miss':
        case 'pusher:subscription_count':
          caseEmit(number, { type: 'event', channel: name, event, data: data === undefined ? null : data });
          return;
        default:
          if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
          if (bound.has(event)) return;
          bound.add(event);
          channel.bind(event, (payload, metadata) => {
            const line = { type: 'event', channel: name, event, data: payload === undefined ? null : payload };
            if (metadata && metadata.user_id != null) line.userID = String(metadata.user_id);
            caseEmit(number, line);
          });
      }
    });
  }

  function bindClient(number, pusher) {
    bindSocketWatch(number);
    pusher.connection.bind('connected', () => {
      lossReported = false;
      caseEmit(number, { type: 'connected', socketID: String(pusher.connection.socket_id) });
    });
    // The close code of a connection without a WebSocket (an HTTP transport's `c[code,reason]`
    // frame): pusher-js turns the close into an action whose error the connection manager emits as
    // {type:'WebSocketError', error:{type:'PusherError', data:{code}}} (src/core/connection/
    // connection.ts handleCloseEvent, connection_manager.ts:310-317) just before it leaves
    // `connected`; a pusher:error message is a bare PusherError and is not taken for a close.
    let httpCloseCode = null;
    pusher.connection.bind('error', (error) => {
      const inner = error && error.type === 'WebSocketError' ? error.error : null;
      if (inner && inner.type === 'PusherError' && inner.data && typeof inner.data.code === 'number') httpCloseCode = inner.data.code;
    });
    pusher.connection.bind('state_change', (states) => {
      // A connection that ended without a WebSocket close seen (an HTTP transport): reported
      // when pusher-js leaves `connected`, with the close code of its close frame when it had one.
      if (states.previous === 'connected' && states.current !== 'connected' && !lossReported) {
        lossReported = true;
        caseEmit(number, { type: 'disconnected', code: httpCloseCode });
      }
      if (states.current === 'connected') httpCloseCode = null;
    });
    // A pusher:error after the handshake reaches the global emitter (src/core/pusher.ts:108-121:
    // every event not `pusher_internal:`); one in the handshake refuses the connection
    // (src/core/connection/handshake/index.ts:55-64) and shows as its close code.
    pusher.bind('pusher:error', (data) => {
      const code = data && typeof data.code === 'number' ? data.code : null;
      caseEmit(number, { type: 'error', code, message: data && data.message != null ? String(data.message) : '' });
    });
    // Sign-in (src/core/user.ts): pusher:signin_success is on the global emitter before the user
    // facade reads it (its 'message' binding is made after Pusher's own); the signed-in user is
    // reported once the facade accepted the user data (user.ts _onSigninSuccess).
    pusher.bind('pusher:signin_success', () => {
      Promise.resolve().then(() => {
        const user = pusher.user && pusher.user.user_data;
        if (user && user.id != null) caseEmit(number, { type: 'signedIn', userID: String(user.id) });
      });
    });
    if (pusher.user) {
      // A refused sign-in (user.ts _onAuthorize: the endpoint failed) is the user facade's
      // 'pusher:signin_error'. It is no pusher:error of the server, so its code is null (as the
      // protocol's refused signin, docs/driver-protocol.md); the HTTP status goes in the message.
      pusher.user.bind('pusher:signin_error', (data) => {
        const status = data && data.status != null ? ` (status ${data.status})` : '';
        caseEmit(number, { type: 'error', code: null,
          message: `signin${status}: ${data && (data.error || data.type) || ''}`.trim() });
      });
      // Events to the signed-in user (#server-to-user-ID): the facade re-emits every one that is
      // not pusher:/pusher_internal: (user.ts _subscribeChannels).
      pusher.user.bind_global((event, data) => {
        if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
        caseEmit(number, { type: 'userEvent', event, data: data === undefined ? null : data });
      });
      const watchlist = pusher.user.watchlist;
      if (watchlist && typeof watchlist.bind === 'function') {
        // src/core/watchlist.ts handleEvent: one emit per watchlist event, named by it.
        for (const which of ['online', 'offline']) {
          watchlist.bind(which, (event) => {
            const ids = event && Array.isArray(event.user_ids) ? event.user_ids.map(String) : [];
            caseEmit(number, { type: 'watchlist', name: which, userIDs: ids });
          });
        }
      }
    }
  }

  function stopClient() {
    const old = client;
    client = null;
    caseNumber += 1;
    watchers.clear();
    if (!old) return;
    try { old.disconnect(); } catch (e) { say(`disconnect: ${e && e.message || e}`); }
    try { old.unbind_all(); } catch (e) { /* nothing bound */ }
    try { old.connection.unbind(); } catch (e) { /* nothing bound */ }
    forget(Pusher, old);
  }

  async function configure(f) {
    stopClient();
    if (f.tls) {
      const reason = host.tls && host.trust ? await host.trust(f.caPEM) : 'no TLS trust in this host';
      if (reason) throw new Unsupported(reason);
    }
    const number = caseNumber;
    lossReported = false;
    client = withoutAutoConnect(Pusher, () => new Pusher(f.appKey, options(f)));
    bindClient(number, client);
  }

  const ops = {
    connect() { client.connect(); return {}; },
    disconnect() { client.disconnect(); return {}; },
    subscribe(step) {
      const channel = client.subscribe(step.channel);
      bindChannel(caseNumber, channel);
      return {};
    },
    unsubscribe(step) { client.unsubscribe(step.channel); return {}; },
    trigger(step) {
      const channel = client.channel(step.channel);
      if (!channel) return { error: `not subscribed to ${step.channel}` };
      // Channel.trigger sends through the connection; false when it is not connected
      // (src/core/channels/channel.ts:52-65, connection_manager.ts send_event).
      const sent = channel.trigger(step.event, step.data);
      return { data: { sent: Boolean(sent) } };
    },
    signin() {
      if (typeof client.signin !== 'function') throw new Unsupported('this client has no signin()');
      client.signin();
      return {};
    },
  };

  function hello() {
    return {
      protocol: PROTOCOL,
      client: Pusher.__harnessMiniClient ? 'harness-mini-pusher' : 'pusher-js',
      version,
      flavour: host.name,
      controlTimeoutMs: host.controlTimeoutMs || 15000,
      capabilities: capabilities(Pusher, host, facts),
      profile: Pusher.__harnessMiniClient ? Pusher.__harnessMiniClient.profile : PROFILE,
      reuse: Boolean(host.endCase),
      operations: ['connect', 'disconnect', 'subscribe', 'unsubscribe', 'trigger', 'signin'],
    };
  }

  async function handle(step) {
    const id = step.id;
    const kind = step.type;
    try {
      if (kind === 'hello') return emit({ id, type: 'result', data: hello() });
      if (kind === 'configure') {
        await configure(step);
        return emit({ id, type: 'result' });
      }
      if (kind === 'close') {
        stopClient();
        if (step.reuse && host.endCase) return emit({ id, type: 'result', data: await host.endCase() });
        return emit({ id, type: 'result' });
      }
      if (client === null) return emit({ id, type: 'error', detail: 'no case is configured' });
      const op = ops[kind];
      if (!op) return emit({ id, type: 'unsupported', detail: `operation ${kind}` });
      const out = op(step);
      if (out.error) return emit({ id, type: 'error', detail: out.error });
      return emit(Object.assign({ id, type: 'result' }, out.data ? { data: out.data } : {}));
    } catch (error) {
      if (error instanceof Unsupported) return emit({ id, type: 'unsupported', detail: error.message });
      const text = error && error.message ? error.message : String(error);
      say(error && error.stack ? error.stack : text);
      return emit({ id, type: 'error', detail: text });
    }
  }

  return { handle, version, stop: stopClient };
}
