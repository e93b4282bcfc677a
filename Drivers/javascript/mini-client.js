// SPDX-License-Identifier: MIT
//
// A small PubNub client of the harness's own (fetch only, no dependency), exposing the part of
// the official JavaScript SDK's API that driver-core.mjs needs for the basic suites: time,
// publish / signal / fire, subscribe with listeners (channels, groups, presence), unsubscribe,
// here now and history (v2). It lets CI test the JavaScript driver and both of its hosts end to end
// without the SDK:  PUBNUB_JS_SDK=Drivers/javascript/mini-client.js
//
// Same calling convention as the SDK: `method(parameters, (status, response) => …)`, statuses
// `{error, category, operation, statusCode}`. UMD: `require()` in Node, a global `PubNub` in a page.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.PubNub = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  var VERSION = '1.0.0';
  var PNSDK = 'harness-mini-client/' + VERSION;

  function enc(text) {
    return encodeURIComponent(String(text)).replace(/[!'()*~]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }

  function names(list) {
    return list.length ? list.map(enc).join(',') : ',';
  }

  function categoryForStatus(code) {
    if (code === 400) return 'PNBadRequestCategory';
    if (code === 403) return 'PNAccessDeniedCategory';
    if (code === 414) return 'PNRequestURITooLongCategory';
    return 'PNUnknownCategory';
  }

  function PubNub(config) {
    this.config = Object.assign({}, config);
    this.listeners = [];
    this.channels = [];
    this.groups = [];
    this.cursor = null; // {t, r}
    this.loop = null; // AbortController of the running long-poll
    this.generation = 0;
    this.destroyed = false;
    this.pending = new Set();
    var self = this;
    this.channelGroups = {}; // not offered
    this.objects = {};
    this.push = {};
    void self;
  }

  PubNub.__harnessMiniClient = {
    capabilities: ['presence', 'history'],
    profile: {
      reconnection: 'none',
      unsubscribeAllStatus: 'PNDisconnectedCategory',
      listChangeStatus: 'PNConnectedCategory',
      subscribeTimeout: 'silent-restart',
      subscribeFaultStatus: 'PNUnexpectedDisconnectCategory',
      handshake: 'tt=0',
      heartbeat: 'subscribe-query',
      settingsIgnored: ['reconnectPingIntervalMs', 'restoreSubscription', 'catchUpOnSubscriptionRestore',
        'requestMessageCountThreshold', 'presenceHeartbeatIntervalMs'],
    },
  };

  PubNub.prototype.getVersion = function () { return VERSION; };

  PubNub.prototype.addListener = function (listener) { this.listeners.push(listener); };
  PubNub.prototype.removeAllListeners = function () { this.listeners = []; };

  PubNub.prototype.announce = function (kind, event) {
    if (this.destroyed) return;
    this.listeners.forEach(function (listener) {
      if (typeof listener[kind] === 'function') {
        try { listener[kind](event); } catch (e) { /* a listener's failure is not the client's */ }
      }
    });
  };

  PubNub.prototype.url = function (path, query) {
    var c = this.config;
    var q = Object.assign({ uuid: c.userId, pnsdk: PNSDK }, query || {});
    if (c.authKey) q.auth = c.authKey;
    var parts = Object.keys(q).filter(function (k) { return q[k] !== undefined && q[k] !== null; })
      .map(function (k) { return k + '=' + enc(q[k]); });
    return (c.ssl ? 'https://' : 'http://') + c.origin + path + (parts.length ? '?' + parts.join('&') : '');
  };

  // One request: resolves {status, body}; never rejects.
  PubNub.prototype.request = function (operation, path, query, options) {
    options = options || {};
    var self = this;
    var controller = new AbortController();
    var timedOut = false;
    var seconds = options.timeout || this.config.transactionalRequestTimeout || 10;
    var timer = setTimeout(function () { timedOut = true; controller.abort(); }, seconds * 1000);
    if (options.signal) {
      if (options.signal.aborted) controller.abort();
      else options.signal.addEventListener('abort', function () { controller.abort(); });
    }
    var init = { method: options.method || 'GET', signal: controller.signal };
    if (options.body !== undefined) {
      init.body = options.body;
      init.headers = { 'Content-Type': 'application/json' };
    }
    var entry = { controller: controller, timer: timer };
    this.pending.add(entry);
    var done = function (status, body) {
      clearTimeout(timer);
      self.pending.delete(entry);
      status.operation = operation;
      return { status: status, body: body };
    };
    return fetch(this.url(path, query), init).then(function (response) {
      return response.text().then(function (text) {
        var body;
        try { body = text.length ? JSON.parse(text) : undefined; } catch (e) {
          if (response.status >= 400) return done({ error: true, category: categoryForStatus(response.status), statusCode: response.status }, text);
          return done({ error: true, category: 'PNMalformedResponseCategory', statusCode: response.status }, text);
        }
        if (response.status >= 400) return done({ error: true, category: categoryForStatus(response.status), statusCode: response.status }, body);
        return done({ error: false, category: 'PNAcknowledgmentCategory', statusCode: response.status }, body);
      });
    }, function (error) {
      if (timedOut) return done({ error: true, category: 'PNTimeoutCategory' });
      if (controller.signal.aborted) return done({ error: true, category: 'PNCancelledCategory' });
      return done({ error: true, category: 'PNNetworkIssuesCategory', errorData: { name: 'Error', message: String(error && error.message) } });
    });
  };

  function finish(promise, callback, shape) {
    promise.then(function (outcome) {
      if (outcome.status.error) return callback(outcome.status, null);
      var response;
      try { response = shape(outcome.body); } catch (e) {
        return callback({ error: true, category: 'PNMalformedResponseCategory', operation: outcome.status.operation,
          statusCode: outcome.status.statusCode }, null);
      }
      callback(outcome.status, response);
    });
  }

  PubNub.prototype.time = function (callback) {
    finish(this.request('PNTimeOperation', '/time/0'), callback, function (body) {
      if (!Array.isArray(body)) throw new Error('shape');
      return { timetoken: String(body[0]) };
    });
  };

  function publishReply(body) {
    if (!Array.isArray(body) || body[0] !== 1) throw new Error('shape');
    return { timetoken: String(body[2]) };
  }

  PubNub.prototype.publish = function (p, callback) {
    var c = this.config;
    var query = {};
    if (p.meta != null) query.meta = JSON.stringify(p.meta);
    if (p.storeInHistory === false) query.store = '0';
    if (p.storeInHistory === true) query.store = '1';
    if (p.norep) query.norep = 'true';
    if (p.customMessageType != null) query.custom_message_type = p.customMessageType;
    var base = '/publish/' + enc(c.publishKey) + '/' + enc(c.subscribeKey) + '/0/' + enc(p.channel) + '/0';
    var request = p.sendByPost
      ? this.request('PNPublishOperation', base, query, { method: 'POST', body: JSON.stringify(p.message) })
      : this.request('PNPublishOperation', base + '/' + enc(JSON.stringify(p.message)), query);
    finish(request, callback, publishReply);
  };

  PubNub.prototype.fire = function (p, callback) {
    this.publish(Object.assign({}, p, { storeInHistory: false, norep: true }), callback);
  };

  PubNub.prototype.signal = function (p, callback) {
    var c = this.config;
    var query = {};
    if (p.customMessageType != null) query.custom_message_type = p.customMessageType;
    var path = '/signal/' + enc(c.publishKey) + '/' + enc(c.subscribeKey) + '/0/' + enc(p.channel) + '/0/' + enc(JSON.stringify(p.message));
    finish(this.request('PNSignalOperation', path, query), callback, publishReply);
  };

  PubNub.prototype.hereNow = function (p, callback) {
    var c = this.config;
    var channels = p.channels || [];
    var query = { disable_uuids: p.includeUUIDs === false ? '1' : '0', state: p.includeState ? '1' : '0' };
    if (p.channelGroups && p.channelGroups.length) query['channel-group'] = p.channelGroups.join(',');
    var path = '/v2/presence/sub-key/' + enc(c.subscribeKey) + '/channel/' + names(channels);
    finish(this.request('PNHereNowOperation', path, query), callback, function (body) {
      var out = { totalChannels: 0, totalOccupancy: 0, channels: {} };
      var occupants = function (list) {
        return (list || []).map(function (u) { return typeof u === 'string' ? { uuid: u } : { uuid: u.uuid, state: u.state }; });
      };
      if (body && body.payload && body.payload.channels) {
        Object.keys(body.payload.channels).forEach(function (name) {
          var e = body.payload.channels[name];
          out.channels[name] = { name: name, occupancy: e.occupancy, occupants: occupants(e.uuids) };
        });
        out.totalOccupancy = body.payload.total_occupancy;
        out.totalChannels = body.payload.total_channels;
      } else if (body && typeof body.occupancy === 'number') {
        out.channels[channels[0]] = { name: channels[0], occupancy: body.occupancy, occupants: occupants(body.uuids) };
        out.totalOccupancy = body.occupancy;
        out.totalChannels = 1;
      } else {
        throw new Error('shape');
      }
      return out;
    });
  };

  PubNub.prototype.history = function (p, callback) {
    var c = this.config;
    var query = { count: p.count != null ? p.count : 100, include_token: p.includeTimetoken === false ? 'false' : 'true' };
    if (p.reverse) query.reverse = 'true';
    if (p.start != null) query.start = p.start;
    if (p.end != null) query.end = p.end;
    var path = '/v2/history/sub-key/' + enc(c.subscribeKey) + '/channel/' + enc(p.channel);
    finish(this.request('PNHistoryOperation', path, query), callback, function (body) {
      if (!Array.isArray(body) || !Array.isArray(body[0])) throw new Error('shape');
      var messages = body[0].map(function (item) {
        if (p.includeTimetoken !== false && item && typeof item === 'object' && 'message' in item && 'timetoken' in item) {
          return { entry: item.message, timetoken: String(item.timetoken) };
        }
        return { entry: item };
      });
      return { messages: messages, startTimeToken: String(body[1]), endTimeToken: String(body[2]) };
    });
  };

  // --- subscribe loop (4.x semantics: tt=0 handshake, then long-polls with the cursor) -----------

  PubNub.prototype.subscriptionList = function () {
    var self = this;
    var channels = [];
    this.channels.forEach(function (entry) {
      channels.push(entry.name);
      if (entry.presence) channels.push(entry.name + '-pnpres');
    });
    var groups = [];
    this.groups.forEach(function (entry) {
      groups.push(entry.name);
      if (entry.presence) groups.push(entry.name + '-pnpres');
    });
    void self;
    return { channels: channels, groups: groups };
  };

  function addNames(list, add, presence) {
    (add || []).forEach(function (name) {
      var found = list.filter(function (e) { return e.name === name; })[0];
      if (found) found.presence = found.presence || presence;
      else list.push({ name: name, presence: presence });
    });
  }

  PubNub.prototype.subscribe = function (p) {
    addNames(this.channels, p.channels, Boolean(p.withPresence));
    addNames(this.groups, p.channelGroups, Boolean(p.withPresence));
    this.restart(p.timetoken != null ? { t: String(p.timetoken) } : null);
  };

  PubNub.prototype.restart = function (cursor) {
    // keepTimeTokenOnListChange: the new handshake's cursor is replaced by the last one
    var harness = this.config.__harness || {};
    this.resumeFrom = !cursor && harness.keepTimeTokenOnListChange !== false && this.cursor ? this.cursor : null;
    if (this.loop) this.loop.abort();
    this.loop = null;
    this.generation += 1;
    this.announced = false;
    var list = this.subscriptionList();
    if (!list.channels.length && !list.groups.length) return;
    this.poll(this.generation, cursor);
  };

  PubNub.prototype.poll = function (generation, cursor) {
    if (this.destroyed || generation !== this.generation) return;
    var self = this;
    var c = this.config;
    var list = this.subscriptionList();
    var query = { tt: cursor ? cursor.t : '0' };
    if (cursor && cursor.r != null) query.tr = cursor.r;
    if (list.groups.length) query['channel-group'] = list.groups.join(',');
    if (c.presenceTimeout) query.heartbeat = c.presenceTimeout;
    if (c.filterExpression) query['filter-expr'] = c.filterExpression;
    var controller = new AbortController();
    this.loop = controller;
    var path = '/v2/subscribe/' + enc(c.subscribeKey) + '/' + names(list.channels) + '/0';
    this.request('PNSubscribeOperation', path, query, { timeout: c.subscribeRequestTimeout || 310, signal: controller.signal })
      .then(function (outcome) {
        if (self.destroyed || generation !== self.generation) return;
        var status = outcome.status;
        if (status.error) {
          if (status.category === 'PNCancelledCategory') return;
          if (status.category === 'PNTimeoutCategory') return self.poll(generation, cursor);
          self.loop = null;
          if (status.category === 'PNNetworkIssuesCategory' || status.category === 'PNMalformedResponseCategory') {
            return self.announce('status', { category: 'PNUnexpectedDisconnectCategory', operation: 'PNSubscribeOperation', error: true });
          }
          return self.announce('status', status);
        }
        var body = outcome.body;
        if (!body || !body.t || !Array.isArray(body.m)) {
          self.loop = null;
          return self.announce('status', { category: 'PNMalformedResponseCategory', operation: 'PNSubscribeOperation', error: true });
        }
        var next = { t: String(body.t.t), r: body.t.r };
        if (!cursor && self.resumeFrom) { next = self.resumeFrom; self.resumeFrom = null; }
        self.cursor = next;
        if (!self.announced) {
          self.announced = true;
          self.announce('status', { category: 'PNConnectedCategory', operation: 'PNSubscribeOperation', currentTimetoken: next.t });
        }
        body.m.forEach(function (envelope) { self.dispatch(envelope); });
        self.poll(generation, next);
      });
  };

  PubNub.prototype.dispatch = function (m) {
    var channel = m.c;
    var subscription = m.b && m.b !== channel ? m.b : undefined;
    var timetoken = m.p && m.p.t != null ? String(m.p.t) : undefined;
    if (/-pnpres$/.test(channel)) {
      var d = m.d || {};
      var event = { channel: channel.slice(0, -7), action: d.action, uuid: d.uuid, occupancy: d.occupancy,
        timestamp: d.timestamp, timetoken: timetoken };
      if (d.data !== undefined) event.state = d.data;
      if (subscription) event.subscription = subscription.replace(/-pnpres$/, '');
      if (event.subscription === event.channel) delete event.subscription;
      ['join', 'leave', 'timeout'].forEach(function (k) { if (Array.isArray(d[k])) event[k] = d[k]; });
      return this.announce('presence', event);
    }
    var out = { channel: channel, subscription: subscription, message: m.d, publisher: m.i, timetoken: timetoken };
    if (m.cmt !== undefined) out.customMessageType = m.cmt;
    if (m.u !== undefined) out.userMetadata = m.u;
    if (m.e === 1) return this.announce('signal', out);
    if (m.e === 2) return this.announce('objects', { channel: channel, message: m.d, publisher: m.i, timetoken: timetoken });
    if (m.e === 4) {
      var payload = m.d || {};
      return this.announce('file', { channel: channel, subscription: subscription, publisher: m.i, timetoken: timetoken,
        message: payload.message, file: payload.file });
    }
    if (m.e === 3) return undefined; // message actions: not offered
    return this.announce('message', out);
  };

  PubNub.prototype.leave = function (channels, groups) {
    var c = this.config;
    var query = {};
    if (groups.length) query['channel-group'] = groups.join(',');
    var path = '/v2/presence/sub-key/' + enc(c.subscribeKey) + '/channel/' + names(channels) + '/leave';
    return this.request('PNUnsubscribeOperation', path, query);
  };

  PubNub.prototype.unsubscribe = function (p) {
    var channels = p.channels || [];
    var groups = p.channelGroups || [];
    this.channels = this.channels.filter(function (e) { return channels.indexOf(e.name) < 0; });
    this.groups = this.groups.filter(function (e) { return groups.indexOf(e.name) < 0; });
    var empty = !this.channels.length && !this.groups.length;
    var self = this;
    this.leave(channels, groups).then(function (outcome) {
      if (empty) self.announce('status', { category: 'PNDisconnectedCategory', operation: 'PNUnsubscribeOperation' });
      else self.announce('status', outcome.status);
    });
    if (empty) {
      if (this.loop) this.loop.abort();
      this.loop = null;
      this.generation += 1;
    } else {
      this.restart(null);
    }
  };

  PubNub.prototype.unsubscribeAll = function () {
    this.unsubscribe({
      channels: this.channels.map(function (e) { return e.name; }),
      channelGroups: this.groups.map(function (e) { return e.name; }),
    });
  };

  PubNub.prototype.destroy = function () {
    this.destroyed = true;
    this.generation += 1;
    if (this.loop) this.loop.abort();
    this.loop = null;
    this.pending.forEach(function (entry) { clearTimeout(entry.timer); entry.controller.abort(); });
    this.pending.clear();
    this.listeners = [];
  };

  PubNub.prototype.stop = PubNub.prototype.destroy;

  return PubNub;
});
