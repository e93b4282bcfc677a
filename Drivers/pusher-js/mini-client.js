// SPDX-License-Identifier: MIT
//
// A small Pusher Channels client of the harness's own, written from the protocol
// (/docs/pusher.md, the spec's §2-§4), exposing the part of pusher-js's public API that
// pusher-core.mjs uses: `new Pusher(key, {wsHost, wsPort, forceTLS, channelAuthorization})`,
// `connect`, `disconnect`, `bind` (global events), `connection.bind` ('connected',
// 'state_change'), `subscribe` / `unsubscribe` / `channel` with channels offering `bind_global`,
// `bind`, `trigger` and presence `members.each`, and the statics `isReady`, `instances` and
// `Runtime.createWebSocket`. No reconnection, no TLS, no sign-in, no encryption: it lets CI test
// the pusher-js driver and both of its hosts without pusher-js:
//   node Drivers/pusher-js/node-host.mjs --sdk Drivers/pusher-js/mini-client.js
//
// UMD: `require()` in Node (WebSocket from the global, else `ws`: Debian's node-ws), a global
// `Pusher` in a page.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.Pusher = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  var VERSION = '1.0.0';

  function webSocketClass() {
    if (typeof WebSocket === 'function') return WebSocket;
    var names = ['ws', '/usr/share/nodejs/ws'];
    for (var i = 0; i < names.length; i++) {
      try {
        // eslint-disable-next-line no-undef
        var ws = require(names[i]);
        return ws.WebSocket || ws;
      } catch (e) { /* next */ }
    }
    throw new Error('no WebSocket: install Debian\'s node-ws or `ws`');
  }

  function Dispatcher() {
    this.callbacks = {};
    this.globals = [];
  }
  Dispatcher.prototype.bind = function (name, fn) {
    (this.callbacks[name] = this.callbacks[name] || []).push(fn);
    return this;
  };
  Dispatcher.prototype.bind_global = function (fn) {
    this.globals.push(fn);
    return this;
  };
  Dispatcher.prototype.unbind = function (name) {
    if (name === undefined) this.callbacks = {};
    else delete this.callbacks[name];
    return this;
  };
  Dispatcher.prototype.unbind_all = function () {
    this.callbacks = {};
    this.globals = [];
    return this;
  };
  // Global callbacks first with (name, data); named ones after, with (data, metadata).
  Dispatcher.prototype.emit = function (name, data, metadata) {
    var i;
    for (i = 0; i < this.globals.length; i++) this.globals[i](name, data);
    var named = this.callbacks[name] || [];
    for (i = 0; i < named.length; i++) named[i](data, metadata || {});
    return this;
  };

  function parse(text) {
    if (typeof text !== 'string') return text;
    try { return JSON.parse(text); } catch (e) { return text; }
  }

  function Members() {
    this.ids = [];
    this.me = null;
  }
  Members.prototype.each = function (fn) {
    for (var i = 0; i < this.ids.length; i++) fn({ id: this.ids[i] });
  };

  function Channel(name, pusher) {
    Dispatcher.call(this);
    this.name = name;
    this.pusher = pusher;
    this.subscribed = false;
    if (name.indexOf('presence-') === 0) this.members = new Members();
  }
  Channel.prototype = Object.create(Dispatcher.prototype);
  Channel.prototype.trigger = function (event, data) {
    return this.pusher.send({ event: event, channel: this.name, data: data });
  };
  Channel.prototype.subscribe = function () {
    var self = this;
    var pusher = this.pusher;
    if (this.name.indexOf('private-') !== 0 && this.name.indexOf('presence-') !== 0) {
      pusher.send({ event: 'pusher:subscribe', data: { channel: this.name } });
      return;
    }
    var body = 'socket_id=' + encodeURIComponent(pusher.connection.socket_id) +
      '&channel_name=' + encodeURIComponent(this.name);
    var endpoint = pusher.options.channelAuthorization && pusher.options.channelAuthorization.endpoint;
    fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: body })
      .then(function (response) {
        return response.text().then(function (text) {
          if (response.status !== 200) throw { status: response.status, error: text };
          return JSON.parse(text);
        });
      })
      .then(function (auth) {
        var data = { channel: self.name, auth: auth.auth };
        if (auth.channel_data != null) {
          data.channel_data = auth.channel_data;
          if (self.members) self.members.me = String(JSON.parse(auth.channel_data).user_id);
        }
        pusher.send({ event: 'pusher:subscribe', data: data });
      })
      .catch(function (error) {
        self.emit('pusher:subscription_error', { type: 'AuthError', error: String(error && error.error || error), status: error && error.status });
      });
  };
  Channel.prototype.handle = function (message) {
    var event = message.event;
    var data = parse(message.data);
    if (event === 'pusher_internal:subscription_succeeded') {
      this.subscribed = true;
      if (this.members) this.members.ids = ((data && data.presence && data.presence.ids) || []).map(String);
      this.emit('pusher:subscription_succeeded', this.members || data);
    } else if (event === 'pusher_internal:member_added' && this.members) {
      var added = String(data.user_id);
      if (this.members.ids.indexOf(added) < 0) this.members.ids.push(added);
      this.emit('pusher:member_added', { id: added });
    } else if (event === 'pusher_internal:member_removed' && this.members) {
      var removed = String(data.user_id);
      this.members.ids = this.members.ids.filter(function (id) { return id !== removed; });
      this.emit('pusher:member_removed', { id: removed });
    } else if (event.indexOf('pusher_internal:') !== 0) {
      this.emit(event, data, message.user_id != null ? { user_id: message.user_id } : {});
    }
  };

  function Pusher(key, options) {
    Dispatcher.call(this);
    this.key = key;
    this.options = Object.assign({}, options);
    this.config = { nacl: null };
    this.channels = {};
    this.socket = null;
    this.connection = new Dispatcher();
    this.connection.state = 'initialized';
    this.connection.socket_id = null;
    this.user = null;
    this.timeline = { options: { version: VERSION } };
    Pusher.instances.push(this);
    if (Pusher.isReady) this.connect();
  }
  Pusher.prototype = Object.create(Dispatcher.prototype);

  Pusher.instances = [];
  Pusher.isReady = true;
  Pusher.log = undefined;
  Pusher.Runtime = {
    createWebSocket: function (url) {
      var Socket = webSocketClass();
      return new Socket(url);
    },
  };
  Pusher.__harnessMiniClient = {
    capabilities: ['privateChannels', 'presence', 'clientEvents'],
    // It acts on no close code and never reconnects; the profile's other values do not apply.
    profile: { closeCodes: 'close-codes', resubscribe: 'reauthorize' },
  };

  Pusher.prototype.setState = function (state) {
    var previous = this.connection.state;
    this.connection.state = state;
    if (previous !== state) this.connection.emit('state_change', { previous: previous, current: state });
  };

  Pusher.prototype.connect = function () {
    if (this.socket) return;
    var self = this;
    var scheme = this.options.forceTLS ? 'wss' : 'ws';
    var port = this.options.forceTLS ? this.options.wssPort : this.options.wsPort;
    var url = scheme + '://' + this.options.wsHost + ':' + port + '/app/' + encodeURIComponent(this.key) +
      '?protocol=7&client=harness-mini&version=' + VERSION;
    this.setState('connecting');
    var socket = Pusher.Runtime.createWebSocket(url);
    this.socket = socket;
    socket.addEventListener('message', function (event) {
      if (self.socket !== socket) return;
      var message;
      try { message = JSON.parse(typeof event.data === 'string' ? event.data : String(event.data)); } catch (e) { return; }
      self.receive(message);
    });
    socket.addEventListener('close', function () {
      if (self.socket !== socket) return;
      self.socket = null;
      for (var name in self.channels) self.channels[name].subscribed = false;
      self.setState('disconnected');
    });
  };

  Pusher.prototype.receive = function (message) {
    var event = message.event;
    if (event === 'pusher:connection_established') {
      this.connection.socket_id = parse(message.data).socket_id;
      this.setState('connected');
      this.connection.emit('connected', { socket_id: this.connection.socket_id });
      for (var name in this.channels) this.channels[name].subscribe();
      return;
    }
    if (event === 'pusher:ping') { this.send({ event: 'pusher:pong', data: {} }); return; }
    if (message.channel && this.channels[message.channel]) this.channels[message.channel].handle(message);
    if (event.indexOf('pusher_internal:') !== 0) this.emit(event, parse(message.data));
  };

  Pusher.prototype.send = function (message) {
    if (!this.socket || this.connection.state !== 'connected') return false;
    this.socket.send(JSON.stringify(message));
    return true;
  };

  Pusher.prototype.disconnect = function () {
    var socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
    for (var name in this.channels) this.channels[name].subscribed = false;
    this.setState('disconnected');
  };

  Pusher.prototype.subscribe = function (name) {
    var channel = this.channels[name] || (this.channels[name] = new Channel(name, this));
    if (this.connection.state === 'connected') channel.subscribe();
    return channel;
  };

  Pusher.prototype.unsubscribe = function (name) {
    var channel = this.channels[name];
    if (!channel) return;
    delete this.channels[name];
    if (channel.subscribed) this.send({ event: 'pusher:unsubscribe', data: { channel: name } });
  };

  Pusher.prototype.channel = function (name) {
    return this.channels[name];
  };

  return Pusher;
});
