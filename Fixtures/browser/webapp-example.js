// SPDX-License-Identifier: MIT
//
// The end-to-end test of the recipe in docs/recipes.md, run in headless Chromium by
// scripts/check-browser-cors.sh: the app is configured with the mock's origin, the test installs
// a fault from the page (the first publish answers 500), drives the app, checks what the user
// sees, then reads the mock's journal back to check what the app sent.
import { createChat } from './webapp-example-app.js';

const mock = new URLSearchParams(location.search).get('mock');
const run = Math.random().toString(36).slice(2, 10);
const subscribeKey = `sub-c-webapp-${run}`;
const channel = 'room-1';
const checks = [];
const record = (name, ok, detail = '') => checks.push({ name, ok: Boolean(ok), detail });
const admin = (method, path, body) => fetch(`${mock}/__admin${path}`, {
  method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
});

try {
  // 1. The test installs a fault plan for its own subscribe key.
  const plan = { rules: [{ id: 'first-publish-fails', match: { endpoint: 'publish' }, times: 1, fault: { kind: 'status', status: 500 } }] };
  const installed = await admin('PUT', `/plans/${subscribeKey}`, plan);
  record('fault plan installed from the page', installed.status === 200, `status ${installed.status}`);

  // 2. The app, pointed at the mock, does what a user asks.
  const chat = createChat({
    origin: mock, subscribeKey, publishKey: `pub-c-webapp-${run}`, userId: 'alice',
    list: document.getElementById('messages'), status: document.getElementById('status'),
  });
  const sent = await chat.send(channel, 'hello from the web app');
  record('the app retries the failed publish and reports it', sent.ok && sent.attempts === 2,
    `ok ${sent.ok}, attempts ${sent.attempts}, status line "${document.getElementById('status').textContent}"`);
  const shown = await chat.refresh(channel);
  record('the message is shown once', shown === 1, `${shown} messages shown`);

  // 3. The test reads the journal back: what the app really sent and what it was answered.
  const journal = await (await admin('GET', `/journal/${subscribeKey}`)).json();
  const publishes = journal.entries.filter((entry) => entry.endpoint === 'publish');
  const answers = publishes.map((entry) => entry.answer && entry.answer.status);
  record('the journal shows the failed publish, then the retry', answers.join(',') === '500,200', `answers ${answers.join(',')}`);
  record('the fault fired on the first publish only', publishes[0]?.rule === 'first-publish-fails' && !publishes[1]?.rule,
    `rules ${publishes.map((entry) => entry.rule ?? '-').join(',')}`);
  await admin('DELETE', `/plans/${subscribeKey}`);
} catch (error) {
  record('the test ran to its end', false, String(error && error.message || error));
}
await fetch('/result', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ checks }) });
