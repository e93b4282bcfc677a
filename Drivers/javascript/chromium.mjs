// SPDX-License-Identifier: MIT
//
// Starting Debian's `chromium` headless for the harness's pages: a throwaway profile (removed
// when the browser is stopped), never --disable-web-security, and tied to the calling process
// through --remote-debugging-pipe (pipes nobody writes to: when the caller exits, even by
// SIGKILL, they close and Chromium ends itself).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';

/// The flags every harness page runs with, then `extraFlags`, then the page's `url`.
export function chromiumFlags(profile, url, extraFlags = []) {
  return [
    '--headless=new', `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check',
    '--disable-gpu', '--disable-extensions', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--metrics-recording-only', '--disable-crash-reporter', '--disable-breakpad', '--mute-audio',
    '--disable-dev-shm-usage',
    // Chromium refuses to run as root with its sandbox; the pages are the harness's own, on loopback.
    ...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []),
    '--remote-debugging-pipe',
    ...extraFlags,
    url,
  ];
}

/// Starts Chromium on `url`. `onExit(code, stderrTail)` is called when it ends by itself (not
/// after `stop()`); `onError(error)` when it cannot start. Returns `{ stop }`.
export function startChromium({ chromiumPath = 'chromium', url, extraFlags = [], onExit = () => {}, onError = () => {} }) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-chromium-'));
  const child = spawn(chromiumPath, chromiumFlags(profile, url, extraFlags), {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true,
  });
  let stopped = false;
  let tail = '';
  child.stderr.on('data', (chunk) => { tail = (tail + chunk).slice(-4000); });
  child.on('error', (error) => { if (!stopped) onError(error); });
  child.on('exit', (code, signal) => {
    if (!stopped) onExit(code ?? signal, tail);
    removeProfile();
  });
  function removeProfile() {
    try { fs.rmSync(profile, { recursive: true, force: true }); } catch (e) { /* best effort */ }
  }
  function stop() {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid, 'SIGKILL'); } catch (e) { try { child.kill('SIGKILL'); } catch (e2) { /* gone */ } }
    }
    removeProfile();
  }
  return { stop, stderrTail: () => tail };
}
