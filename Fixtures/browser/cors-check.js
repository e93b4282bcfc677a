// SPDX-License-Identifier: MIT
//
// The browser path without any SDK: a page on its own origin calls every service of the mock
// with the requests a web SDK makes (simple GETs; a preflighted POST with a JSON body; PATCH with
// If-Match; DELETE; a multipart upload to the storage URL; the 307 download followed; an exposed
// ETag read), and reports each call to page-check.mjs. A CORS refusal shows in the page as
// `TypeError: Failed to fetch`: every check fails on it, with the request named.
const mock = new URLSearchParams(location.search).get('mock');
const run = Math.random().toString(36).slice(2, 10);
const sub = `sub-c-page-${run}`;
const pub = `pub-c-page-${run}`;
const uuid = `page-${run}`;
const channel = `browser-${run}`;
const checks = [];

function log(text) {
  return fetch('/log', { method: 'POST', body: String(text) }).catch(() => {});
}

/// Runs `body` as one check: it passes when `body` returns without throwing.
async function check(name, body) {
  try {
    const detail = await body();
    checks.push({ name, ok: true, detail: detail || '' });
  } catch (error) {
    checks.push({ name, ok: false, detail: String(error && error.message || error) });
  }
}

/// fetch on the mock; a rejected fetch (a CORS refusal, a network error) names the request.
async function call(method, path, init = {}) {
  let response;
  try {
    response = await fetch(mock + path, { method, ...init });
  } catch (error) {
    throw new Error(`${method} ${path.split('?')[0]} refused (${error.message}): a CORS refusal or a network error`);
  }
  return response;
}

function expect(condition, text) {
  if (!condition) throw new Error(text);
}

async function json(response, what) {
  const text = await response.text();
  try { return JSON.parse(text); } catch (e) { throw new Error(`${what}: not JSON: ${text.slice(0, 120)}`); }
}

const q = `uuid=${uuid}&pnsdk=harness-page`;
const message = encodeURIComponent(JSON.stringify({ text: 'from a page' }));
let publishTimetoken = '';

await check('GET time', async () => {
  const response = await call('GET', `/time/0?${q}`);
  expect(response.status === 200, `status ${response.status}`);
  const body = await json(response, 'time');
  expect(Array.isArray(body) && String(body[0]).length === 17, `body ${JSON.stringify(body)}`);
});

await check('GET subscribe handshake', async () => {
  const response = await call('GET', `/v2/subscribe/${sub}/${channel}/0?tt=0&${q}`);
  expect(response.status === 200, `status ${response.status}`);
  const body = await json(response, 'subscribe');
  expect(body.t && body.t.t, `no cursor in ${JSON.stringify(body)}`);
});

await check('GET publish', async () => {
  const response = await call('GET', `/publish/${pub}/${sub}/0/${channel}/0/${message}?${q}`);
  expect(response.status === 200, `status ${response.status}`);
  const body = await json(response, 'publish');
  expect(body[0] === 1, `body ${JSON.stringify(body)}`);
  publishTimetoken = body[2];
});

await check('POST publish with a JSON body (preflighted)', async () => {
  const response = await call('POST', `/publish/${pub}/${sub}/0/${channel}/0?${q}`, {
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'posted' }),
  });
  expect(response.status === 200, `status ${response.status}`);
  const body = await json(response, 'publish');
  expect(body[0] === 1, `body ${JSON.stringify(body)}`);
});

await check('GET signal', async () => {
  const response = await call('GET', `/signal/${pub}/${sub}/0/${channel}/0/${message}?${q}`);
  expect(response.status === 200, `status ${response.status}`);
});

await check('GET here now and heartbeat', async () => {
  const beat = await call('GET', `/v2/presence/sub-key/${sub}/channel/${channel}/heartbeat?heartbeat=60&${q}`);
  expect(beat.status === 200, `heartbeat status ${beat.status}`);
  const response = await call('GET', `/v2/presence/sub-key/${sub}/channel/${channel}?${q}`);
  expect(response.status === 200, `here now status ${response.status}`);
});

await check('GET history and fetch', async () => {
  const history = await call('GET', `/v2/history/sub-key/${sub}/channel/${channel}?count=10&${q}`);
  expect(history.status === 200, `history status ${history.status}`);
  const fetched = await call('GET', `/v3/history/sub-key/${sub}/channel/${channel}?max=10&${q}`);
  expect(fetched.status === 200, `fetch status ${fetched.status}`);
  const body = await json(fetched, 'fetch');
  const got = (body.channels && body.channels[channel]) || [];
  expect(got.length === 2, `fetch returned ${got.length} messages, expected 2`);
});

await check('POST a message action (preflighted JSON)', async () => {
  expect(publishTimetoken, 'no publish timetoken (the GET publish check failed)');
  const response = await call('POST', `/v1/message-actions/${sub}/channel/${channel}/message/${publishTimetoken}?${q}`, {
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'reaction', value: 'smile' }),
  });
  expect(response.status === 200, `status ${response.status}`);
  const body = await json(response, 'message action');
  expect(body.data && body.data.actionTimetoken, `body ${JSON.stringify(body)}`);
});

await check('PATCH App Context with If-Match', async () => {
  const created = await call('PATCH', `/v2/objects/${sub}/uuids/${uuid}?${q}&include=custom`, {
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Page', custom: { n: 1 } }),
  });
  expect(created.status === 200, `first PATCH status ${created.status}`);
  const eTag = (await json(created, 'App Context')).data.eTag;
  const updated = await call('PATCH', `/v2/objects/${sub}/uuids/${uuid}?${q}`, {
    headers: { 'Content-Type': 'application/json', 'If-Match': eTag }, body: JSON.stringify({ name: 'Page 2' }),
  });
  expect(updated.status === 200, `PATCH with If-Match status ${updated.status}`);
  const stale = await call('PATCH', `/v2/objects/${sub}/uuids/${uuid}?${q}`, {
    headers: { 'Content-Type': 'application/json', 'If-Match': eTag }, body: JSON.stringify({ name: 'Page 3' }),
  });
  expect(stale.status === 412, `PATCH with a stale If-Match: status ${stale.status}, expected 412 (readable across origins)`);
});

await check('DELETE history (preflighted)', async () => {
  const response = await call('DELETE', `/v3/history/sub-key/${sub}/channel/${channel}?${q}`);
  expect(response.status === 200, `status ${response.status}`);
});

await check('files: generate the upload URL, multipart upload, ETag, 307 download', async () => {
  const generated = await call('POST', `/v1/files/${sub}/channels/${channel}/generate-upload-url?${q}`, {
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'note.txt' }),
  });
  expect(generated.status === 200, `generate-upload-url status ${generated.status}`);
  const plan = await json(generated, 'generate-upload-url');
  const form = new FormData();
  for (const field of plan.file_upload_request.form_fields) form.append(field.key, field.value);
  const content = `hello from ${run}`;
  form.append('file', new Blob([content], { type: 'text/plain' }), 'note.txt');
  let upload;
  try {
    upload = await fetch(plan.file_upload_request.url, { method: 'POST', body: form });
  } catch (error) {
    throw new Error(`the multipart upload to ${plan.file_upload_request.url} was refused (${error.message})`);
  }
  expect(upload.status === 204, `upload status ${upload.status}`);
  const eTag = upload.headers.get('ETag');
  expect(eTag && /^"[0-9a-f]{32}"$/.test(eTag), `ETag not readable from the page: ${eTag}`);
  const download = await call('GET', `/v1/files/${sub}/channels/${channel}/files/${plan.data.id}/note.txt?${q}`);
  expect(download.redirected, 'the download did not follow a redirect');
  expect(download.status === 200, `download status ${download.status}`);
  const text = await download.text();
  expect(text === content, `downloaded ${JSON.stringify(text.slice(0, 60))}`);
});

await check('an error body is readable across origins (400)', async () => {
  const response = await call('GET', `/publish/${pub}/${sub}/0/${channel}/0/not-json?${q}`);
  expect(response.status === 400, `status ${response.status}, expected 400`);
  const body = await json(response, 'publish error');
  expect(Array.isArray(body) && body[0] === 0, `body ${JSON.stringify(body)}`);
  return `${JSON.stringify(body)}`;
});

await check('the control API: a fault installed from the page, the journal read back', async () => {
  const plan = { rules: [{ id: 'page', match: { endpoint: 'here-now' }, times: 1, fault: { kind: 'status', status: 503 } }] };
  const installed = await call('PUT', `/__admin/plans/${sub}`, {
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(plan),
  });
  expect(installed.status === 200, `install status ${installed.status}: ${await installed.text()}`);
  const failed = await call('GET', `/v2/presence/sub-key/${sub}/channel/${channel}?${q}`);
  const again = await call('GET', `/v2/presence/sub-key/${sub}/channel/${channel}?${q}`);
  const journal = await json(await call('GET', `/__admin/journal/${sub}`), 'journal');
  const cleared = await call('DELETE', `/__admin/plans/${sub}`);
  expect(failed.status === 503, `the faulted here now answered ${failed.status}, expected 503 (readable across origins)`);
  expect(again.status === 200, `the next here now answered ${again.status}`);
  expect(cleared.status === 200, `clearing the plan answered ${cleared.status}`);
  const paths = (journal.entries || []).map((entry) => entry.path || (entry.request && entry.request.path) || '');
  expect(paths.length >= 2, `the journal has ${paths.length} entries`);
  return `${paths.length} journal entries`;
});

await check('a 404 on an unknown path is readable across origins', async () => {
  const response = await call('GET', `/v9/nothing-here?${q}`);
  expect(response.status === 404, `status ${response.status}`);
});

await log(`ran ${checks.length} checks against ${mock}`);
await fetch('/result', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ checks }) });
