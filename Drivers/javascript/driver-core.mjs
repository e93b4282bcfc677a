// SPDX-License-Identifier: MIT
//
// pubnub-harness driver core for the PubNub JavaScript SDK (8.x to 11.x), independent of its host.
//
// It maps every operation of docs/driver-protocol.md onto the SDK's public API and the SDK's
// listener onto protocol events. A host (node-host.mjs: Node; browser-host.mjs: a Chromium page)
// loads the SDK, reads request lines and writes what `emit` is given:
//
//   import { createDriver } from './driver-core.mjs';
//   const driver = createDriver({ PubNub, host, emit, log });
//   driver.handle(requestObject);            // replies and events arrive through emit(object)
//
// `host` describes what the runtime can do:
//   name             'node' | 'chromium'
//   canSign          false in a page: the secret key has no place in a browser (grant, grantToken,
//                    revokeToken and a signed client are answered `unsupported`)
//   trust(pem, tls)  makes the runtime trust the run's CA; returns null or the reason it cannot
//   endCase()        async: ends every connection/timer of the case (reuse); returns
//                    {reusable, detail}
//   sdkSource        where the SDK came from (for logs)
//
// SDK facts below cite the SDK's sources (github.com/pubnub/javascript, src/...) as file:line of
// release 11.0.2 (commit 94d70766d0a5deab45272bd49ba36566ad2b1f05) unless a release is named.

export class Unsupported extends Error {}

const CATEGORY_RENAMES = {
  // The event engine's name for an unexpected loss of the subscribe loop
  // (src/core/constants/categories.ts); 4.x calls it PNUnexpectedDisconnectCategory.
  PNDisconnectedUnexpectedlyCategory: 'PNUnexpectedDisconnectCategory',
};

const category = (name) => (name == null ? null : CATEGORY_RENAMES[name] || String(name));

// The event engine announces a failed handshake as PNConnectionErrorCategory and a lost receive
// loop as PNDisconnectedUnexpectedlyCategory, with the failed request's own category in the
// status's `error` field (src/event-engine/states/handshaking.ts:89, receiving.ts:133). The line
// names the request's category when the request was refused for good (access denied, bad request:
// the two the retry policy never retries, src/core/components/retry-policy.ts:314-318), else the
// 4.x name of the lifecycle event; the SDK's own name is kept in `sdkCategory`.
function loopCategory(status) {
  const name = String(status.category);
  if (name === 'PNConnectionErrorCategory' || name === 'PNDisconnectedUnexpectedlyCategory') {
    if (status.error === 'PNAccessDeniedCategory' || status.error === 'PNBadRequestCategory') return status.error;
    return 'PNUnexpectedDisconnectCategory';
  }
  return category(name);
}

const tt = (value) => (value == null ? undefined : String(value));

// Result-object operations: their success carries no category (docs/driver-protocol.md, Replies).
const RESULT_OPERATIONS = new Set([
  'time', 'hereNow', 'whereNow', 'getState', 'history', 'fetchMessages', 'messageCounts',
  'listChannelsInGroup', 'grantToken', 'listFiles', 'getFileURL', 'downloadFile', 'listPushChannels',
  'getUUIDMetadata', 'setUUIDMetadata', 'getAllUUIDMetadata', 'getChannelMetadata', 'setChannelMetadata',
  'getAllChannelMetadata', 'getMemberships', 'setMemberships', 'removeMemberships', 'getMembers',
  'setMembers', 'removeMembers', 'getMessageActions',
]);

export const OPERATIONS = [
  'time', 'publish', 'signal', 'fire', 'subscribe', 'unsubscribe', 'unsubscribeAll', 'hereNow', 'whereNow',
  'setState', 'getState', 'history', 'fetchMessages', 'messageCounts', 'deleteMessages', 'addChannelsToGroup',
  'removeChannelsFromGroup', 'listChannelsInGroup', 'deleteGroup', 'grant', 'getUUIDMetadata', 'setUUIDMetadata',
  'removeUUIDMetadata', 'getAllUUIDMetadata', 'getAllChannelMetadata', 'getChannelMetadata', 'setChannelMetadata',
  'removeChannelMetadata', 'getMemberships', 'setMemberships', 'removeMemberships', 'getMembers', 'setMembers',
  'removeMembers', 'grantToken', 'revokeToken', 'setToken', 'parseToken', 'sendFile', 'publishFileMessage',
  'listFiles', 'getFileURL', 'downloadFile', 'deleteFile', 'addPushChannels', 'removePushChannels',
  'listPushChannels', 'removePushDevice', 'addMessageAction', 'getMessageActions', 'removeMessageAction',
  'disconnect', 'reconnect',
];

// --- SDK version and profile ----------------------------------------------------------------

function sdkVersion(PubNub) {
  if (PubNub.__harnessVersion) return PubNub.__harnessVersion;
  let version = 'unknown';
  try {
    const probe = new PubNub({ subscribeKey: 'probe', publishKey: 'probe', userId: 'probe', origin: '127.0.0.1:9',
      ssl: false, listenToBrowserNetworkEvents: false, autoNetworkDetection: false, logLevel: undefined });
    if (typeof probe.getVersion === 'function') version = probe.getVersion();
    else if (probe._config && probe._config.getVersion) version = probe._config.getVersion();
    try { probe.destroy(true); } catch (e) { /* nothing to end */ }
  } catch (e) {
    version = 'unknown';
  }
  PubNub.__harnessVersion = version;
  return version;
}

function major(version) {
  const m = /^(\d+)\./.exec(version || '');
  return m ? parseInt(m[1], 10) : 0;
}

// Whether the SDK subscribes through its event engine by default:
// 11.0.0 made it the default (src/core/interfaces/configuration.ts:52 `ENABLE_EVENT_ENGINE = true`,
// applied at :796); 8.x-10.x default to false (the same constant in 10.2.9, commit 1d2ee43c~1).
function eventEngineByDefault(version) {
  return major(version) >= 11;
}

function isMiniClient(PubNub) {
  return Boolean(PubNub.__harnessMiniClient);
}

/** The driver protocol version this driver was written for (docs/driver-protocol.md). */
const PROTOCOL_VERSION = 9;

function capabilities(PubNub, host) {
  if (isMiniClient(PubNub)) return PubNub.__harnessMiniClient.capabilities.slice();
  // Protocol 9's capabilities (docs/driver-protocol.md, "What changed in each version"): the SDK
  // has every one (App Context, push, custom message types in publish, signal, subscribe and
  // fetch, filter expressions, wildcard subscribe, message actions, the event engine: a case's
  // retry policy is given as the SDK's own, or answered unsupported where the SDK refuses it).
  const caps = ['encryption', 'presence', 'history', 'channelGroups', 'accessManager', 'accessTokens',
    'reconnection', 'files', 'objects', 'push', 'messageTypes', 'historyMessageTypes', 'filters', 'wildcardSubscribe',
    'messageActions', 'eventEngine'];
  if (host.tls) caps.unshift('tls');
  return caps;
}

function profile(PubNub, version) {
  if (isMiniClient(PubNub)) return PubNub.__harnessMiniClient.profile;
  const engine = eventEngineByDefault(version);
  // Settings the SDK has no equivalent for. Both loops: no catch-up switch and no
  // keep-timetoken-on-list-change switch in the configuration (src/core/interfaces/configuration.ts).
  const ignored = ['catchUpOnSubscriptionRestore', 'keepTimeTokenOnListChange'];
  if (engine) {
    // The event engine retries with a RetryPolicy whose delay is at least 2 s
    // (src/core/components/retry-policy.ts:256 and :284 throw below 2 s): the 100 ms interval
    // cannot be given. It has no message-count threshold either (only the legacy
    // SubscriptionManager emits PNRequestMessageCountExceededCategory:
    // src/core/components/subscription-manager.ts:513-517).
    ignored.push('reconnectPingIntervalMs', 'requestMessageCountThreshold');
    return {
      // src/core/components/configuration.ts:95-110: with the engine the default policy is
      // exponential (2 s, doubling, 6 retries); the engine re-sends the subscribe itself
      // (src/event-engine/effects.ts, handshake/receive reconnect effects).
      reconnection: 'retry-policy',
      // src/event-engine/index.ts unsubscribeAll → UnsubscribeAll event → PNDisconnectedCategory
      unsubscribeAllStatus: 'PNDisconnectedCategory',
      // src/event-engine/states/receiving.ts: a new channel list in Receiving emits
      // PNSubscriptionChangedCategory and keeps the cursor (no second handshake).
      listChangeStatus: 'PNSubscriptionChangedCategory',
      // a subscribe timeout is a failed receive, retried by the policy silently
      subscribeTimeout: 'silent-restart',
      // a failed receive is retried first; only a failed retry (giving up) is announced
      subscribeFaultStatus: 'none',
      handshake: 'tt=0',
      // The engine announces presence with separate heartbeat requests (the presence event
      // engine, or one heartbeat on join when no interval is set: src/core/pubnub-common.ts:452-470
      // and :2790-2803); its subscribe carries no heartbeat= (the run's journal shows none).
      heartbeat: 'separate-request',
      settingsIgnored: ignored,
    };
  }
  // The legacy SubscriptionManager pings /time/0 every 3 s, fixed
  // (src/core/components/reconnection_manager.ts: setInterval(callTime, 3000)).
  ignored.push('reconnectPingIntervalMs');
  return {
    reconnection: 'time-ping',
    // unsubscribeAll: the leave's acknowledgment is announced as the status
    // (src/core/components/subscription-manager.ts:341-362: the leave's own status is emitted)
    unsubscribeAllStatus: 'PNAcknowledgmentCategory',
    listChangeStatus: 'PNConnectedCategory',
    // subscription-manager.ts:441-442: PNTimeoutCategory restarts the loop silently
    subscribeTimeout: 'silent-restart',
    // subscription-manager.ts:443-473: a network failure is announced as PNNetworkIssuesCategory
    subscribeFaultStatus: 'PNNetworkIssuesCategory',
    handshake: 'tt=0',
    heartbeat: 'subscribe-query',
    settingsIgnored: ignored,
  };
}

// --- helpers ------------------------------------------------------------------------------------

function utf8Bytes(text) {
  return new TextEncoder().encode(text);
}

function fileBytes(step) {
  const unit = utf8Bytes(step.content || '');
  if (step.sizeBytes == null || unit.length === 0) return unit;
  const out = new Uint8Array(step.sizeBytes);
  for (let i = 0; i < out.length; i += 1) out[i] = unit[i % unit.length];
  return out;
}

const TOKEN_BITS = [[1, 'read'], [2, 'write'], [4, 'manage'], [8, 'delete'], [16, 'create'], [32, 'get'],
  [64, 'update'], [128, 'join']];

function permissions(mask) {
  const out = {};
  for (const [bit, name] of TOKEN_BITS) if ((Number(mask) & bit) && name !== 'create') out[name] = true;
  return out;
}

function resourceSet(entries) {
  const out = {};
  for (const [name, mask] of Object.entries(entries || {})) out[name] = permissions(mask);
  return Object.keys(out).length ? out : undefined;
}

function masks(entries) {
  const out = {};
  for (const [name, flags] of Object.entries(entries || {})) {
    let mask = 0;
    for (const [bit, flag] of TOKEN_BITS) if (flags && flags[flag]) mask |= bit;
    out[name] = mask;
  }
  return out;
}

function tokenSide(values) {
  const out = {};
  for (const [kind, entries] of Object.entries(values || {})) {
    if (entries && Object.keys(entries).length) out[kind] = masks(entries);
  }
  return out;
}

function sortOption(names) {
  if (!names || !names.length) return undefined;
  const out = {};
  for (const name of names) {
    const [field, direction] = String(name).split(':');
    out[field] = direction || null;
  }
  return out;
}

function listOptions(step, include) {
  const options = { include: Object.assign({ totalCount: Boolean(step.includeCount) }, include) };
  if (step.limit != null) options.limit = step.limit;
  if (step.filter != null) options.filter = step.filter;
  const sort = sortOption(step.sort);
  if (sort) options.sort = sort;
  if (step.start != null || step.end != null) {
    options.page = {};
    if (step.start != null) options.page.next = step.start;
    if (step.end != null) options.page.prev = step.end;
  }
  return options;
}

function has(list, name) {
  return Array.isArray(list) && list.includes(name);
}

function objectInclude(include) {
  return { customFields: has(include, 'custom') };
}

function membershipInclude(include) {
  return {
    customFields: has(include, 'custom'),
    statusField: has(include, 'status'),
    typeField: has(include, 'type'),
    channelFields: has(include, 'channel'),
    customChannelFields: has(include, 'channel.custom'),
    channelStatusField: has(include, 'channel.status'),
    channelTypeField: has(include, 'channel.type'),
  };
}

function memberInclude(include) {
  return {
    customFields: has(include, 'custom'),
    statusField: has(include, 'status'),
    typeField: has(include, 'type'),
    UUIDFields: has(include, 'uuid'),
    customUUIDFields: has(include, 'uuid.custom'),
    UUIDStatusField: has(include, 'uuid.status'),
    UUIDTypeField: has(include, 'uuid.type'),
  };
}

function membershipItems(items) {
  return (items || []).map((item) => {
    const out = { id: item.id };
    if (item.custom !== undefined) out.custom = item.custom;
    if (item.status !== undefined) out.status = item.status;
    if (item.type !== undefined) out.type = item.type;
    return out;
  });
}

const PUSH_GATEWAYS = { apns: 'apns', apns2: 'apns2', gcm: 'gcm', fcm: 'fcm', mpns: 'mpns' };

/** An SDK message action as the driver protocol shows it (timetokens as strings). */
function messageActionData(action) {
  const data = { type: action.type, value: action.value, uuid: action.uuid };
  if (action.messageTimetoken != null) data.messageTimetoken = tt(action.messageTimetoken);
  if (action.actionTimetoken != null) data.actionTimetoken = tt(action.actionTimetoken);
  return data;
}

function errorText(error) {
  if (!error) return 'unknown error';
  if (typeof error === 'string') return error;
  return `${error.name || 'Error'}: ${error.message || String(error)}`.slice(0, 300);
}

// --- the driver ---------------------------------------------------------------------------------

export function createDriver({ PubNub, host, emit, log }) {
  const say = (text) => { try { log(String(text)); } catch (e) { /* logging must not fail a case */ } };
  const version = sdkVersion(PubNub);
  let client = null;
  let caseNumber = 0; // the gate: callbacks of an older case write nothing
  let fields = null;

  function caseEmit(number, line) {
    if (number === caseNumber && client !== null) emit(line);
  }

  // Listener → events (docs/driver-protocol.md, Events).
  function listener(number) {
    const send = (line) => caseEmit(number, line);
    const deliver = (kind, event) => {
      const line = { type: kind, channel: event.channel, message: event.message, publisher: event.publisher,
        timetoken: tt(event.timetoken) };
      if (event.subscription && event.subscription !== event.channel) line.subscription = event.subscription;
      if (event.error !== undefined && event.error !== null && event.error !== false) line.decryptionFailed = true;
      if (event.customMessageType) line.customMessageType = event.customMessageType;
      send(line);
    };
    return {
      status(status) {
        if (!status || status.category == null) return;
        const line = { type: 'status', category: loopCategory(status) };
        if (line.category !== status.category) line.sdkCategory = String(status.category);
        if (status.operation) line.operation = String(status.operation);
        if (status.currentTimetoken != null && status.currentTimetoken !== 0 && status.currentTimetoken !== '0') {
          line.timetoken = tt(status.currentTimetoken);
        }
        send(line);
      },
      message(event) { deliver('message', event); },
      signal(event) { deliver('signal', event); },
      presence(event) {
        let channel = event.channel || '';
        if (channel.endsWith('-pnpres')) channel = channel.slice(0, -7);
        const line = { type: 'presence', channel, action: event.action, uuid: event.uuid, occupancy: event.occupancy };
        if (event.state !== undefined && event.state !== null) line.state = event.state;
        if (event.subscription && event.subscription !== channel && !event.subscription.endsWith('-pnpres')) {
          line.subscription = event.subscription;
        }
        for (const key of ['join', 'leave', 'timeout']) if (Array.isArray(event[key])) line[key] = event[key];
        send(line);
      },
      objects(event) {
        const body = event.message || {};
        const entity = body.type === 'uuid' || body.type === 'user' ? 'uuid'
          : body.type === 'channel' || body.type === 'space' ? 'channel' : body.type;
        send({ type: 'appContext', channel: event.channel, event: body.event, entity, data: body.data });
      },
      // Message-action events (e = 3): the SDK names the event and adds the actor's uuid to
      // `data` (src/core/endpoints/subscribe.ts, BaseSubscribeRequest.messageActionFromEnvelope).
      messageAction(event) {
        send({ type: 'messageAction', channel: event.channel, event: event.event == null ? null : String(event.event),
          action: messageActionData(event.data || {}) });
      },
      file(event) {
        const content = { file: Object.assign({}, event.file || {}) };
        if (event.message !== undefined && event.message !== null) content.message = event.message;
        const line = { type: 'file', channel: event.channel, message: content, publisher: event.publisher,
          timetoken: tt(event.timetoken) };
        if (event.subscription && event.subscription !== event.channel) line.subscription = event.subscription;
        if (event.error) line.decryptionFailed = true;
        send(line);
      },
    };
  }

  function makeConfiguration(f) {
    const config = {
      subscribeKey: f.subscribeKey,
      publishKey: f.publishKey,
      userId: f.uuid,
      origin: f.origin,
      ssl: Boolean(f.tls),
      // The SDK's timeouts are seconds and may be fractional (the transport arms
      // setTimeout(req.timeout * 1000): dist/web/pubnub.js WebTransport.sendRequest).
      transactionalRequestTimeout: f.nonSubscribeTimeoutMs / 1000,
      subscribeRequestTimeout: f.subscribeTimeoutMs / 1000,
      // uploads and downloads (src/core/pubnub-common.ts:1091-1096 use fileRequestTimeout)
      fileRequestTimeout: f.nonSubscribeTimeoutMs / 1000,
      restore: f.restoreSubscription !== false,
      autoNetworkDetection: false,
      listenToBrowserNetworkEvents: false,
      suppressLeaveEvents: false,
      logLevel: undefined,
    };
    if (f.authKey) config.authKey = f.authKey;
    if (f.secretKey) {
      noPAM();
      if (!host.canSign) throw new Unsupported(`a client holding the secret key (${host.name} page: signing keys do not belong in a browser)`);
      config.secretKey = f.secretKey;
    }
    if (f.filterExpression) config.filterExpression = f.filterExpression;
    const value = Number(f.presenceHeartbeatValue || 0);
    const interval = Number(f.presenceHeartbeatIntervalMs || 0);
    if (value > 0) config.presenceTimeout = value;
    // heartbeatInterval 0: no separate heartbeat requests (seconds otherwise).
    config.heartbeatInterval = interval > 0 ? interval / 1000 : 0;
    // The legacy loop announces when one response carries at least this many messages
    // (subscription-manager.ts:513); the SDK's default is 100, so 0 must be passed on as "off".
    config.requestMessageCountThreshold = f.requestMessageCountThreshold > 0 ? f.requestMessageCountThreshold : 0;
    if (f.cipherKey) {
      const scheme = f.cipherScheme || 'legacy';
      const modules = PubNub.CryptoModule;
      if (scheme === 'aescbc') {
        if (!modules || !modules.aesCbcCryptoModule) throw new Unsupported('cipher scheme aescbc (no CryptoModule)');
        config.cryptoModule = modules.aesCbcCryptoModule({ cipherKey: f.cipherKey });
      } else if (scheme === 'legacy' || scheme === 'legacy-random-iv') {
        const randomIV = scheme === 'legacy-random-iv';
        if (modules && modules.legacyCryptoModule) {
          config.cryptoModule = modules.legacyCryptoModule({ cipherKey: f.cipherKey, useRandomIVs: randomIV });
        } else {
          config.cipherKey = f.cipherKey;
          config.useRandomIVs = randomIV;
        }
      } else {
        throw new Unsupported(`cipher scheme ${scheme}`);
      }
    }
    if (f.eventEngine) applyEventEngine(config, f);
    if (PubNub.__harnessMiniClient) config.__harness = { reconnectPingIntervalMs: f.reconnectPingIntervalMs, keepTimeTokenOnListChange: f.keepTimeTokenOnListChange !== false };
    return config;
  }

  // The case's event-engine settings (protocol 9) as the SDK's retryConfiguration. The SDK's
  // policies refuse delays under 2 s (src/core/components/retry-policy.ts:256 linear, :284
  // exponential): such a policy is unsupported, with that reason.
  function applyEventEngine(config, f) {
    if (isMiniClient(PubNub)) throw new Unsupported('the mini client has no event engine');
    const policy = f.retryPolicy || {};
    const seconds = (policy.delayMs ?? 2000) / 1000;
    const excluded = (policy.excluded || []).map((name) => {
      const endpoint = PubNub.Endpoint && PubNub.Endpoint[name.charAt(0).toUpperCase() + name.slice(1)];
      if (endpoint === undefined) throw new Unsupported(`no Endpoint for ${name} in this SDK's retry policies`);
      return endpoint;
    });
    config.enableEventEngine = true;
    config.suppressLeaveEvents = Boolean(f.suppressLeaveEvents);
    if (policy.kind === 'none') {
      if (typeof PubNub.NoneRetryPolicy !== 'function') throw new Unsupported('no NoneRetryPolicy in this SDK');
      config.retryConfiguration = PubNub.NoneRetryPolicy();
      return;
    }
    const linear = policy.kind !== 'exponential';
    if (seconds < 2) {
      throw new Unsupported(`a ${linear ? 'linear' : 'exponential'} retry delay of ${seconds} s: the SDK refuses delays `
        + `under 2 s (src/core/components/retry-policy.ts:${linear ? 256 : 284})`);
    }
    config.retryConfiguration = linear
      ? PubNub.LinearRetryPolicy({ delay: seconds, maximumRetry: policy.maximumRetries ?? 2, excluded })
      : PubNub.ExponentialRetryPolicy({ minimumDelay: seconds, maximumDelay: (policy.maximumDelayMs ?? 150000) / 1000,
        maximumRetry: policy.maximumRetries ?? 6, excluded });
  }

  // Calls an SDK method in its callback form: (status, response). The status carries the
  // category and HTTP status code of both outcomes.
  function call(target, method, parameters) {
    const fn = target && target[method];
    if (typeof fn !== 'function') throw new Unsupported(`${method} is not in this SDK (${version})`);
    return new Promise((resolve) => {
      let settled = false;
      const done = (status, response) => {
        if (settled) return;
        settled = true;
        resolve({ status: status || {}, response });
      };
      try {
        if (method === 'grant' || method === 'grantToken' || method === 'revokeToken') noPAM();
        const returned = parameters === undefined ? fn.call(target, done) : fn.call(target, parameters, done);
        if (returned && typeof returned.then === 'function') {
          // a method without a callback form (returns a promise only)
          returned.then((response) => done({ error: false, statusCode: 200 }, response),
            (error) => done(error && error.status ? error.status : { error: true, errorData: error }, undefined));
        }
      } catch (error) {
        if (error instanceof Unsupported) throw error;
        done(error && error.status ? error.status : { error: true, category: 'PNValidationErrorCategory', errorData: error }, undefined);
      }
    });
  }

  // The web build leaves Access Manager's grant operations out (rollup.config.js:83:
  // PAM_MODULE defaults to 'disabled'; src/core/pubnub-common.ts throws 'PAM module disabled').
  function noPAM() {
    if (host.bundleWithoutPAM) {
      throw new Unsupported('the web build of the SDK has no grant operations (rollup.config.js:83 builds it with PAM_MODULE=disabled) and signs no request (src/web/index.ts gives its middleware no shaHMAC; src/node/index.ts:123 does)');
    }
  }

  // A promise-only method (no callback form).
  async function callPromise(promiseFactory) {
    try {
      const response = await promiseFactory();
      return { status: { error: false, statusCode: 200 }, response };
    } catch (error) {
      return { status: error && error.status ? error.status : { error: true, errorData: error }, response: undefined };
    }
  }

  function reply(kind, outcome, data) {
    const { status } = outcome;
    const out = {};
    if (status.error) {
      out.category = category(status.category) || 'PNUnknownCategory';
      out.error = true;
      const detail = status.errorData ? errorText(status.errorData) : undefined;
      out.data = detail ? { detail } : {};
      if (status.errorData && status.errorData.status && typeof status.errorData.status === 'object') {
        // a PubNubAPIError's own payload
        out.data.service = status.errorData.status;
      }
    } else {
      out.category = RESULT_OPERATIONS.has(kind) ? null : (category(status.category) || 'PNAcknowledgmentCategory');
      out.error = false;
      out.data = data === undefined ? {} : data;
    }
    if (status.statusCode) out.statusCode = status.statusCode;
    return out;
  }

  const ops = {
    async time() {
      const o = await call(client, 'time');
      return reply('time', o, o.response && { timetoken: tt(o.response.timetoken) });
    },
    async publish(step) {
      const p = { channel: step.channel, message: step.message };
      if (step.meta != null) p.meta = step.meta;
      if (step.storeInHistory != null) p.storeInHistory = Boolean(step.storeInHistory);
      if (step.usePOST) p.sendByPost = true;
      if (step.customMessageType != null) p.customMessageType = step.customMessageType;
      const o = await call(client, 'publish', p);
      return reply('publish', o, o.response && { timetoken: tt(o.response.timetoken) });
    },
    async fire(step) {
      const p = { channel: step.channel, message: step.message };
      if (step.meta != null) p.meta = step.meta;
      const o = await call(client, 'fire', p);
      return reply('fire', o, o.response && { timetoken: tt(o.response.timetoken) });
    },
    async signal(step) {
      const p = { channel: step.channel, message: step.message };
      if (step.customMessageType != null) p.customMessageType = step.customMessageType;
      const o = await call(client, 'signal', p);
      return reply('signal', o, o.response && { timetoken: tt(o.response.timetoken) });
    },
    async subscribe(step) {
      const p = { channels: step.channels || [], channelGroups: step.groups || [], withPresence: Boolean(step.withPresence) };
      if (step.timetoken != null) p.timetoken = String(step.timetoken);
      client.subscribe(p);
      return { category: null, error: false, data: {} };
    },
    async unsubscribe(step) {
      client.unsubscribe({ channels: step.channels || [], channelGroups: step.groups || [] });
      return { category: null, error: false, data: {} };
    },
    async unsubscribeAll() {
      client.unsubscribeAll();
      return { category: null, error: false, data: {} };
    },
    async disconnect() {
      client.disconnect();
      return { category: null, error: false, data: {} };
    },
    async reconnect(step) {
      client.reconnect(step.timetoken ? { timetoken: step.timetoken } : undefined);
      return { category: null, error: false, data: {} };
    },
    async hereNow(step) {
      const p = { channels: step.channels || [], channelGroups: step.groups || [],
        includeUUIDs: step.includeUUIDs !== false, includeState: Boolean(step.includeState) };
      const o = await call(client, 'hereNow', p);
      let data;
      if (o.response) {
        const channels = {};
        for (const [name, entry] of Object.entries(o.response.channels || {})) {
          const uuids = (entry.occupants || []).map((occupant) => {
            const item = { uuid: occupant.uuid };
            if (step.includeState && occupant.state != null) item.state = occupant.state;
            return item;
          });
          channels[name] = { occupancy: entry.occupancy, uuids };
        }
        data = { totalOccupancy: o.response.totalOccupancy, channels };
      }
      return reply('hereNow', o, data);
    },
    async whereNow(step) {
      const p = {};
      if (step.uuid) p.uuid = step.uuid;
      const o = await call(client, 'whereNow', p);
      return reply('whereNow', o, o.response && { channels: o.response.channels || [] });
    },
    async setState(step) {
      const o = await call(client, 'setState', { channels: step.channels || [], channelGroups: step.groups || [], state: step.state || {} });
      return reply('setState', o, o.response && { state: o.response.state });
    },
    async getState(step) {
      const p = { channels: step.channels || [], channelGroups: step.groups || [] };
      if (step.uuid) p.uuid = step.uuid;
      const o = await call(client, 'getState', p);
      return reply('getState', o, o.response && { channels: o.response.channels || {} });
    },
    async history(step) {
      const p = { channel: step.channel, reverse: Boolean(step.reverse), includeTimetoken: step.includeTimetoken !== false };
      if (step.start != null) p.start = String(step.start);
      if (step.end != null) p.end = String(step.end);
      if (step.count != null) p.count = step.count;
      const o = await call(client, 'history', p);
      if (!o.response || o.status.error) return reply('history', o);
      let failed = false;
      const messages = (o.response.messages || []).map((item) => {
        const entry = { message: item.entry };
        if (item.timetoken != null) entry.timetoken = tt(item.timetoken);
        if (item.error) failed = true;
        return entry;
      });
      const out = reply('history', o, { messages, start: tt(o.response.startTimeToken), end: tt(o.response.endTimeToken) });
      if (failed) out.category = 'PNDecryptionErrorCategory';
      return out;
    },
    async fetchMessages(step) {
      const p = { channels: step.channels || [] };
      if (step.start != null) p.start = String(step.start);
      if (step.end != null) p.end = String(step.end);
      if (step.max != null) p.count = step.max;
      if (step.includeCustomMessageType) p.includeCustomMessageType = true;
      if (step.includeMessageActions) p.includeMessageActions = true;
      const o = await call(client, 'fetchMessages', p);
      if (!o.response || o.status.error) return reply('fetchMessages', o);
      let failed = false;
      const channels = {};
      for (const [name, items] of Object.entries(o.response.channels || {})) {
        channels[name] = (items || []).map((item) => {
          if (item.error) failed = true;
          const entry = { message: item.message, timetoken: tt(item.timetoken) };
          if (item.meta !== undefined && item.meta !== '') entry.meta = item.meta;
          if (item.uuid !== undefined) entry.publisher = item.uuid;
          if (item.customMessageType !== undefined) entry.customMessageType = item.customMessageType;
          if (item.actions !== undefined) entry.actions = item.actions;
          return entry;
        });
      }
      const out = reply('fetchMessages', o, { channels });
      if (failed) out.category = 'PNDecryptionErrorCategory';
      return out;
    },
    async messageCounts(step) {
      const o = await call(client, 'messageCounts', { channels: step.channels || [], channelTimetokens: (step.timetokens || []).map(String) });
      return reply('messageCounts', o, o.response && { channels: o.response.channels || {} });
    },
    async deleteMessages(step) {
      const p = { channel: step.channel };
      if (step.start != null) p.start = String(step.start);
      if (step.end != null) p.end = String(step.end);
      return reply('deleteMessages', await call(client, 'deleteMessages', p), {});
    },
    async addChannelsToGroup(step) {
      return reply('addChannelsToGroup', await call(client.channelGroups, 'addChannels', { channels: step.channels, channelGroup: step.group }), {});
    },
    async removeChannelsFromGroup(step) {
      return reply('removeChannelsFromGroup', await call(client.channelGroups, 'removeChannels', { channels: step.channels, channelGroup: step.group }), {});
    },
    async listChannelsInGroup(step) {
      const o = await call(client.channelGroups, 'listChannels', { channelGroup: step.group });
      return reply('listChannelsInGroup', o, o.response && { channels: o.response.channels || [] });
    },
    async deleteGroup(step) {
      return reply('deleteGroup', await call(client.channelGroups, 'deleteGroup', { channelGroup: step.group }), {});
    },
    async grant(step) {
      if (!host.canSign) throw new Unsupported(`grant: Access Manager v2 grants are signed with the secret key, which a ${host.name} page must not hold`);
      if (!fields.secretKey) throw new Unsupported('grant needs secretKey in configure');
      const p = { channels: step.channels || [], channelGroups: step.groups || [], authKeys: step.authKeys || [],
        read: Boolean(step.read), write: Boolean(step.write), manage: Boolean(step.manage) };
      if (step.ttl != null) p.ttl = step.ttl;
      return reply('grant', await call(client, 'grant', p), {});
    },
    async grantToken(step) {
      if (!host.canSign) throw new Unsupported(`grantToken: tokens are signed with the secret key, which a ${host.name} page must not hold`);
      if (!fields.secretKey) throw new Unsupported('grantToken needs secretKey in configure');
      const p = { ttl: step.ttl, resources: {}, patterns: {} };
      const set = (side, name, value) => { const r = resourceSet(value); if (r) p[side][name] = r; };
      set('resources', 'channels', step.channels);
      set('resources', 'groups', step.groups);
      set('resources', 'uuids', step.uuids);
      set('patterns', 'channels', step.channelPatterns);
      set('patterns', 'groups', step.groupPatterns);
      set('patterns', 'uuids', step.uuidPatterns);
      if (!Object.keys(p.patterns).length) delete p.patterns;
      if (!Object.keys(p.resources).length) delete p.resources;
      if (step.authorizedUUID) p.authorized_uuid = step.authorizedUUID;
      if (step.meta) p.meta = step.meta;
      const o = await call(client, 'grantToken', p);
      return reply('grantToken', o, o.response !== undefined ? { token: o.response } : undefined);
    },
    async revokeToken(step) {
      if (!host.canSign) throw new Unsupported(`revokeToken: signed with the secret key, which a ${host.name} page must not hold`);
      if (!fields.secretKey) throw new Unsupported('revokeToken needs secretKey in configure');
      return reply('revokeToken', await call(client, 'revokeToken', step.token), {});
    },
    async setToken(step) {
      if (typeof client.setToken !== 'function') throw new Unsupported('setToken is not in this SDK');
      client.setToken(step.token ? step.token : undefined);
      return { category: null, error: false, data: {} };
    },
    async parseToken(step) {
      if (typeof client.parseToken !== 'function') throw new Unsupported('parseToken is not in this SDK');
      let parsed;
      try {
        parsed = client.parseToken(step.token);
      } catch (error) {
        return { category: 'PNBadRequestCategory', error: true, data: { detail: errorText(error) } };
      }
      if (!parsed) return { category: 'PNBadRequestCategory', error: true, data: { detail: 'not a token' } };
      return {
        category: null,
        error: false,
        data: {
          version: parsed.version, timestamp: parsed.timestamp, ttl: parsed.ttl,
          authorizedUUID: parsed.authorized_uuid != null ? parsed.authorized_uuid : null,
          resources: tokenSide(parsed.resources), patterns: tokenSide(parsed.patterns),
          meta: parsed.meta || {},
        },
      };
    },
    // --- App Context
    async getUUIDMetadata(step) {
      const p = { include: objectInclude(step.include) };
      if (step.uuid) p.uuid = step.uuid;
      const o = await call(client.objects, 'getUUIDMetadata', p);
      return reply('getUUIDMetadata', o, o.response && { data: o.response.data });
    },
    async setUUIDMetadata(step) {
      const p = { data: Object.assign({}, step.metadata || {}), include: objectInclude(step.include) };
      if (step.uuid) p.uuid = step.uuid;
      if (step.ifMatchesETag) p.ifMatchesEtag = step.ifMatchesETag;
      const o = await call(client.objects, 'setUUIDMetadata', p);
      return reply('setUUIDMetadata', o, o.response && { data: o.response.data });
    },
    async removeUUIDMetadata(step) {
      const p = {};
      if (step.uuid) p.uuid = step.uuid;
      return reply('removeUUIDMetadata', await call(client.objects, 'removeUUIDMetadata', p), {});
    },
    async getAllUUIDMetadata(step) {
      const o = await call(client.objects, 'getAllUUIDMetadata', listOptions(step, objectInclude(step.include)));
      return reply('getAllUUIDMetadata', o, o.response && listData(o.response));
    },
    async getChannelMetadata(step) {
      const o = await call(client.objects, 'getChannelMetadata', { channel: step.channel, include: objectInclude(step.include) });
      return reply('getChannelMetadata', o, o.response && { data: o.response.data });
    },
    async setChannelMetadata(step) {
      const p = { channel: step.channel, data: Object.assign({}, step.metadata || {}), include: objectInclude(step.include) };
      if (step.ifMatchesETag) p.ifMatchesEtag = step.ifMatchesETag;
      const o = await call(client.objects, 'setChannelMetadata', p);
      return reply('setChannelMetadata', o, o.response && { data: o.response.data });
    },
    async removeChannelMetadata(step) {
      return reply('removeChannelMetadata', await call(client.objects, 'removeChannelMetadata', { channel: step.channel }), {});
    },
    async getAllChannelMetadata(step) {
      const o = await call(client.objects, 'getAllChannelMetadata', listOptions(step, objectInclude(step.include)));
      return reply('getAllChannelMetadata', o, o.response && listData(o.response));
    },
    async getMemberships(step) {
      const p = listOptions(step, membershipInclude(step.include));
      if (step.uuid) p.uuid = step.uuid;
      const o = await call(client.objects, 'getMemberships', p);
      return reply('getMemberships', o, o.response && listData(o.response));
    },
    async setMemberships(step) {
      const p = listOptions(step, membershipInclude(step.include));
      if (step.uuid) p.uuid = step.uuid;
      p.channels = membershipItems(step.set);
      const o = await call(client.objects, 'setMemberships', p);
      return reply('setMemberships', o, o.response && listData(o.response));
    },
    async removeMemberships(step) {
      const p = listOptions(step, membershipInclude(step.include));
      if (step.uuid) p.uuid = step.uuid;
      p.channels = (step.remove || []).map(String);
      const o = await call(client.objects, 'removeMemberships', p);
      return reply('removeMemberships', o, o.response && listData(o.response));
    },
    async manageMemberships() {
      throw new Unsupported('manageMemberships: the JS SDK sets and removes memberships in separate calls (no manage method in src/core/pubnub-objects.ts)');
    },
    async getMembers(step) {
      const o = await call(client.objects, 'getChannelMembers', Object.assign(listOptions(step, memberInclude(step.include)), { channel: step.channel }));
      return reply('getMembers', o, o.response && listData(o.response));
    },
    async setMembers(step) {
      const p = Object.assign(listOptions(step, memberInclude(step.include)), { channel: step.channel, uuids: membershipItems(step.set) });
      const o = await call(client.objects, 'setChannelMembers', p);
      return reply('setMembers', o, o.response && listData(o.response));
    },
    async removeMembers(step) {
      const p = Object.assign(listOptions(step, memberInclude(step.include)), { channel: step.channel, uuids: (step.remove || []).map(String) });
      const o = await call(client.objects, 'removeChannelMembers', p);
      return reply('removeMembers', o, o.response && listData(o.response));
    },
    async manageMembers() {
      throw new Unsupported('manageMembers: the JS SDK sets and removes members in separate calls (no manage method in src/core/pubnub-objects.ts)');
    },
    // --- files
    async sendFile(step) {
      const p = { channel: step.channel, file: { data: fileBytes(step), name: step.name, mimeType: 'text/plain' } };
      if (host.name === 'chromium' && typeof Blob !== 'undefined') {
        p.file = { data: new Blob([fileBytes(step)], { type: 'text/plain' }), name: step.name, mimeType: 'text/plain' };
      } else if (typeof Buffer !== 'undefined') {
        p.file.data = Buffer.from(fileBytes(step));
      }
      if (step.message !== undefined) p.message = step.message;
      if (step.customMessageType != null) p.customMessageType = step.customMessageType;
      const o = await call(client, 'sendFile', p);
      return reply('sendFile', o, o.response && { id: o.response.id, name: o.response.name, timetoken: tt(o.response.timetoken) });
    },
    async publishFileMessage(step) {
      const p = { channel: step.channel, fileId: step.fileID, fileName: step.fileName };
      if (step.message !== undefined) p.message = step.message;
      if (step.customMessageType != null) p.customMessageType = step.customMessageType;
      const o = await call(client, 'publishFile', p);
      return reply('publishFileMessage', o, o.response && { timetoken: tt(o.response.timetoken) });
    },
    async listFiles(step) {
      const p = { channel: step.channel };
      if (step.limit != null) p.limit = step.limit;
      if (step.next != null) p.next = step.next;
      const o = await call(client, 'listFiles', p);
      return reply('listFiles', o, o.response && {
        files: (o.response.data || []).map((f) => ({ id: f.id, name: f.name, size: f.size, created: f.created })),
        next: o.response.next != null ? o.response.next : null,
        count: o.response.count,
      });
    },
    async getFileURL(step) {
      // The SDK builds the URL locally (src/core/pubnub-common.ts getFileUrl): no request.
      if (typeof client.getFileUrl !== 'function') throw new Unsupported(`getFileUrl is not in this SDK (${version})`);
      const url = client.getFileUrl({ channel: step.channel, id: step.fileID, name: step.fileName });
      return { category: null, error: false, data: { url } };
    },
    async downloadFile(step) {
      const o = await call(client, 'downloadFile', { channel: step.channel, id: step.fileID, name: step.fileName });
      if (!o.response || o.status.error) return reply('downloadFile', o);
      const file = o.response;
      let bytes;
      if (typeof file.toArrayBuffer === 'function') bytes = new Uint8Array(await file.toArrayBuffer());
      else if (typeof file.toBuffer === 'function') bytes = new Uint8Array(await file.toBuffer());
      else bytes = new Uint8Array(0);
      return reply('downloadFile', o, { name: file.name || step.fileName, size: bytes.length, content: new TextDecoder().decode(bytes) });
    },
    async deleteFile(step) {
      return reply('deleteFile', await call(client, 'deleteFile', { channel: step.channel, id: step.fileID, name: step.fileName }), {});
    },
    // --- message actions
    async addMessageAction(step) {
      const p = { channel: step.channel, messageTimetoken: String(step.messageTimetoken),
        action: { type: step.action.type, value: step.action.value } };
      const o = await call(client, 'addMessageAction', p);
      return reply('addMessageAction', o, o.response && messageActionData(o.response.data || {}));
    },
    async getMessageActions(step) {
      const p = { channel: step.channel };
      if (step.start != null) p.start = String(step.start);
      if (step.end != null) p.end = String(step.end);
      if (step.limit != null) p.limit = step.limit;
      const o = await call(client, 'getMessageActions', p);
      let data;
      if (o.response) {
        data = { actions: (o.response.data || []).map(messageActionData) };
        const more = o.response.more;
        if (more) {
          data.more = {};
          for (const key of ['start', 'end', 'limit', 'url']) {
            if (more[key] != null) data.more[key] = key === 'start' || key === 'end' ? tt(more[key]) : more[key];
          }
        }
      }
      return reply('getMessageActions', o, data);
    },
    async removeMessageAction(step) {
      const p = { channel: step.channel, messageTimetoken: String(step.messageTimetoken), actionTimetoken: String(step.actionTimetoken) };
      return reply('removeMessageAction', await call(client, 'removeMessageAction', p), {});
    },
    // --- push
    async addPushChannels(step) { return push('addChannels', 'addPushChannels', step); },
    async removePushChannels(step) { return push('removeChannels', 'removePushChannels', step); },
    async listPushChannels(step) { return push('listChannels', 'listPushChannels', step); },
    async removePushDevice(step) { return push('deleteDevice', 'removePushDevice', step); },
  };

  function listData(response) {
    const data = { data: response.data || [] };
    if (response.totalCount != null) data.totalCount = response.totalCount;
    if (response.next != null) data.next = response.next;
    if (response.prev != null) data.prev = response.prev;
    return data;
  }

  async function push(method, kind, step) {
    const gateway = PUSH_GATEWAYS[step.pushType];
    if (!gateway) throw new Unsupported(`push type ${step.pushType}`);
    const p = { device: step.deviceToken, pushGateway: gateway };
    if (step.channels != null) p.channels = step.channels;
    if (step.topic != null) p.topic = step.topic;
    if (step.environment != null) p.environment = step.environment;
    const o = await call(client.push, method, p);
    return reply(kind, o, kind === 'listPushChannels' ? (o.response && { channels: o.response.channels || [] }) : {});
  }

  // --- control ------------------------------------------------------------------------------

  function hello() {
    return {
      client: isMiniClient(PubNub) ? 'harness-mini-client' : 'pubnub-js',
      version,
      flavour: host.name,
      controlTimeoutMs: host.controlTimeoutMs || 15000,
      protocol: PROTOCOL_VERSION,
      capabilities: capabilities(PubNub, host),
      profile: profile(PubNub, version),
      reuse: Boolean(host.endCase),
      operations: OPERATIONS.slice(),
    };
  }

  function stopClient() {
    const old = client;
    client = null;
    caseNumber += 1;
    if (!old) return;
    try { old.removeAllListeners && old.removeAllListeners(); } catch (e) { say(`removeAllListeners: ${errorText(e)}`); }
    // destroy(true): the client is offline, so no leave is sent (src/core/pubnub-common.ts:1179-1199)
    try { old.destroy ? old.destroy(true) : old.stop && old.stop(); } catch (e) { say(`destroy: ${errorText(e)}`); }
  }

  async function configure(f) {
    stopClient();
    fields = f;
    if (f.tls || f.caPEM) {
      const reason = host.trust ? await host.trust(f.caPEM, Boolean(f.tls)) : 'no TLS trust in this host';
      if (reason && f.tls) throw new Unsupported(reason);
    }
    const config = makeConfiguration(f);
    const number = caseNumber;
    client = new PubNub(config);
    // With a presence timeout the SDK replaces the configured heartbeatInterval by
    // presenceTimeout / 2 - 1 (src/core/interfaces/configuration.ts:835-836); its public setter
    // (src/core/pubnub-common.ts:839-851, read again by the presence engine at :482) gives the
    // interval back. An interval of 0 is left alone: the engine, already made, would loop.
    if (config.heartbeatInterval > 0 && config.presenceTimeout && typeof client.setHeartbeatInterval === 'function') {
      client.setHeartbeatInterval(config.heartbeatInterval);
    }
    client.addListener(listener(number));
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
        if (step.reuse && host.endCase) {
          const outcome = await host.endCase();
          return emit({ id, type: 'result', data: outcome });
        }
        return emit({ id, type: 'result' });
      }
      if (client === null) return emit({ id, type: 'error', detail: 'no case is configured' });
      const op = ops[kind];
      if (!op) return emit({ id, type: 'unsupported', detail: `operation ${kind}` });
      const number = caseNumber;
      const out = await op(step);
      if (number !== caseNumber) return undefined; // the case was closed meanwhile
      return emit(Object.assign({ id, type: 'result' }, out));
    } catch (error) {
      if (error instanceof Unsupported) return emit({ id, type: 'unsupported', detail: error.message });
      say(error && error.stack ? error.stack : errorText(error));
      if (kind === 'configure') return emit({ id, type: 'error', detail: errorText(error) });
      return emit({ id, type: 'result', category: 'PNInternalExceptionCategory', error: true, data: { exception: errorText(error) } });
    }
  }

  return { handle, version, stop: stopClient };
}
