// SPDX-License-Identifier: MIT
//
// The "web app" of the recipe in docs/recipes.md: a chat box that publishes over PubNub's REST
// API and shows the channel's recent messages. In a real app this is the PubNub JavaScript SDK
// configured with the mock's origin (`new PubNub({ origin: '127.0.0.1:8090', ssl: false, ... })`);
// here it is plain fetch, so the example runs without the SDK.
export function createChat({ origin, subscribeKey, publishKey, userId, list, status }) {
  const query = `uuid=${encodeURIComponent(userId)}`;
  return {
    /// Publishes `text`; one retry on a 5xx answer (the app's own policy). Shows the outcome.
    async send(channel, text) {
      const message = encodeURIComponent(JSON.stringify({ text }));
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const response = await fetch(`${origin}/publish/${publishKey}/${subscribeKey}/0/${channel}/0/${message}?${query}`);
        if (response.ok) {
          status.textContent = attempt === 1 ? 'sent' : `sent after ${attempt} attempts`;
          return { ok: true, attempts: attempt };
        }
        if (response.status < 500) break;
      }
      status.textContent = 'could not send';
      return { ok: false };
    },
    /// Shows the channel's last messages (the history service).
    async refresh(channel) {
      const response = await fetch(`${origin}/v3/history/sub-key/${subscribeKey}/channel/${channel}?max=25&${query}`);
      const body = await response.json();
      list.replaceChildren(...(body.channels?.[channel] ?? []).map((entry) => {
        const item = document.createElement('li');
        item.textContent = entry.message.text;
        return item;
      }));
      return list.children.length;
    },
  };
}
