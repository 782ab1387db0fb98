// The account this browser keeps (issue 35, docs/web.md "An account in the browser"), on every page: who you are
// (the header's link), the challenges made to you (Accept, Decline; a sound or a notification if asked for), the
// challenges you made and the seek you wait on, and the game made for you, opened by itself. What the page shows is
// read from the referee's state (`GET /accounts/{id}/challenges`, `GET /seeks/{id}`, `GET /challenges/{id}`); the
// account's event stream (`GET /accounts/{id}/stream`, the key as a bearer token, so read with fetch: an EventSource
// sends no header) only says when to read it again. The key is sent to this referee alone, and never in an address.
import { announce, api, data, el, labelled, seatLink, seats, t } from "./common.js";
import { beep } from "./alerts.js";

const ACCOUNT = "ll.account"; // {key, account_id, name}
const SEEK = "ll.seek"; // the seek this browser waits on: {seek_id, ruleset, players, turn_seconds}
const WAITED = "ll.challenges"; // the ids of the challenges this browser made and waits on
const ALERTED = "ll.alerted"; // the challenges received already announced by a sound or a notification
const ALERTS = "ll.alerts.challenge"; // {sound, notify}: both off by default
const $ = (id) => document.getElementById(id);

function read(name, fallback) {
  try { return JSON.parse(localStorage.getItem(name) || "null") ?? fallback; } catch { return fallback; }
}

/** The account whose key this browser keeps, or null. */
export function held() {
  const account = read(ACCOUNT, null);
  return account && account.key && account.account_id ? account : null;
}

function changed(detail = {}) {
  window.dispatchEvent(new CustomEvent("ll-account", { detail }));
}

/** Keep an account's key in this browser (made here, or pasted from another device), and follow it. */
export function keep(account) {
  localStorage.setItem(ACCOUNT, JSON.stringify({ key: account.key, account_id: account.account_id, name: account.name }));
  start();
  changed();
}

/** Forget the account in this browser: its key, the seek and challenges it waited on. Nothing changes on the referee. */
export function leave() {
  const account = held();
  for (const name of [ACCOUNT, SEEK, WAITED, ALERTED]) localStorage.removeItem(name);
  if (account) localStorage.removeItem(`ll.after.${account.account_id}`);
  start();
  changed();
}

export function waitedSeek() { return read(SEEK, null); }

/** Wait on a seek just made: the game opens by itself when it is paired. */
export function waitSeek(seek) {
  localStorage.setItem(SEEK, JSON.stringify(seek));
  changed({ seek: "open" });
  check();
}

export function forgetSeek() { localStorage.removeItem(SEEK); changed({ seek: "none" }); }

/** Wait on a challenge just made: the game opens by itself when it is accepted. */
export function waitChallenge(id) {
  localStorage.setItem(WAITED, JSON.stringify([...read(WAITED, []).filter((c) => c !== id), id]));
  check();
}

function unwait(id) { localStorage.setItem(WAITED, JSON.stringify(read(WAITED, []).filter((c) => c !== id))); }

/** The two choices for a challenge received (off by default), remembered by this browser. */
export function alertChoices() { return { sound: false, notify: false, ...read(ALERTS, {}) }; }
export function chooseAlerts(choices) { localStorage.setItem(ALERTS, JSON.stringify(choices)); }

// -- the game made for this account ------------------------------------------------------------------------------

let opening = false;

/** Take the seat kept for this account in `game` (a paired seek, an accepted challenge) and open it. */
async function open(game, said) {
  const account = held();
  if (opening || !account) return;
  opening = true;
  news(said);
  let token = seats.get(game);
  if (!token) {
    const body = { name: account.name, account_key: account.key };
    const answer = await api("POST", `/games/${encodeURIComponent(game)}/join`, { body });
    token = answer.ok ? answer.body.token : seats.get(game); // another page of this browser may have taken it
    if (!token) { opening = false; news(answer.body.detail || answer.body.title || ""); return; }
    seats.set(game, token);
  }
  location.assign(seatLink(game, token));
}

// -- the state, read again at each piece of news -----------------------------------------------------------------

let known = null; // the challenges drawn last, for the pages that show them too
let reading = null;
let again = false;

/** Read the account's challenges and waited seek again (at most one reading at a time, then one more if asked). */
export async function check() {
  if (reading) { again = true; return reading; }
  reading = (async () => {
    do { again = false; await reconcile(); } while (again);
  })();
  try { await reading; } finally { reading = null; }
}

async function reconcile() {
  const account = held();
  if (!account) { draw([], []); return; }
  const me = account.account_id;
  const seek = waitedSeek();
  if (seek) {
    const answer = await api("GET", `/seeks/${encodeURIComponent(seek.seek_id)}`);
    const status = answer.ok ? answer.body.status : answer.status === 404 ? "expired" : "open";
    if (waitedSeek()?.seek_id !== seek.seek_id) { /* withdrawn meanwhile by this page: nothing to say */ }
    else if (status === "paired") { forgetSeek(); open(answer.body.game_id, t("quick.found")); return; }
    else if (status !== "open") { forgetSeek(); news(t(status === "cancelled" ? "quick.cancelled" : "quick.expired")); }
  }
  const listed = await api("GET", `/accounts/${encodeURIComponent(me)}/challenges`);
  if (!listed.ok) return;
  const open_ = listed.body.challenges.filter((c) => c.status === "open");
  const incoming = open_.filter((c) => c.challenged.account_id === me);
  const outgoing = open_.filter((c) => c.challenger.account_id === me);
  for (const id of read(WAITED, [])) {
    if (outgoing.some((c) => c.challenge_id === id)) continue;
    const answer = await api("GET", `/challenges/${encodeURIComponent(id)}`);
    if (!answer.ok) { unwait(id); continue; }
    const c = answer.body;
    if (c.status === "open") continue;
    unwait(id);
    if (c.status === "accepted") { open(c.game_id, ""); return; }
    news(t(c.status === "declined" ? "challenge.declined" : "challenge.expired").replace("{name}", c.challenged.name));
  }
  draw(incoming, outgoing);
  alertNew(incoming);
}

function describe(c) {
  const title = data.ruleset_titles?.[c.ruleset] ?? c.ruleset;
  return `${title} — ${t(c.rated ? "challenge.rated" : "challenge.unrated")}`;
}

/** The bar under the header: the challenges received (Accept, Decline) and those made, still unanswered. */
function draw(incoming, outgoing) {
  const key = JSON.stringify([incoming, outgoing].map((list) => list.map((c) => c.challenge_id)));
  if (key === known) return;
  known = key;
  const list = $("challenges");
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren(
    ...incoming.map((c) => {
      const who = `challenge-${c.challenge_id}`; // each button says whose challenge it answers
      const accept = el("button", { type: "button", class: "accept", text: t("challenge.accept"), "aria-describedby": who });
      const decline = el("button", { type: "button", class: "secondary decline", text: t("challenge.decline"),
        "aria-describedby": who });
      accept.addEventListener("click", () => answer(c, "accept", accept));
      decline.addEventListener("click", () => answer(c, "decline", decline));
      return el("li", { "data-challenge": c.challenge_id, class: "incoming" },
        el("span", { class: "who", id: who },
          el("strong", { text: t("challenge.from").replace("{name}", c.challenger.name) }), ` — ${describe(c)}`),
        accept, decline);
    }),
    ...outgoing.map((c) => el("li", { "data-challenge": c.challenge_id, class: "outgoing" },
      el("span", { class: "who", text: `${t("challenge.waiting").replace("{name}", c.challenged.name)} — ${describe(c)}` }))),
  );
  bar();
  if (hadFocus && !list.contains(document.activeElement)) (list.querySelector("button") ?? $("account-news")).focus();
  changed({ challenges: { incoming, outgoing } });
}

async function answer(challenge, verb, button) {
  const account = held();
  if (!account) return;
  button.disabled = true;
  const path = `/challenges/${encodeURIComponent(challenge.challenge_id)}/${verb}`;
  const reply = await api("POST", path, { body: { key: account.key } });
  if (!reply.ok) { button.disabled = false; news(reply.body.detail || reply.body.title || ""); check(); return; }
  if (verb === "accept") {
    seats.set(reply.body.game_id, reply.body.token);
    location.assign(seatLink(reply.body.game_id, reply.body.token));
    return;
  }
  news(t("challenge.declined_by_me"));
  $("account-news").focus();
  check();
}

/** A line of news in the bar (a challenge declined, a search ended), said aloud too. */
function news(text) {
  const line = $("account-news");
  line.textContent = text;
  bar();
  if (text) announce(text);
}

function bar() {
  const shown = Boolean($("challenges").children.length || $("account-news").textContent);
  $("account-bar").hidden = !held() || !shown;
}

/** A sound or a notification, if asked for, once per challenge received in this browser. */
function alertNew(incoming) {
  const alerted = read(ALERTED, []);
  const fresh = incoming.filter((c) => !alerted.includes(c.challenge_id));
  if (!fresh.length) return;
  localStorage.setItem(ALERTED, JSON.stringify([...alerted, ...fresh.map((c) => c.challenge_id)].slice(-50)));
  announce(`${t("challenge.new")}${t("colon")} ${fresh.map((c) => c.challenger.name).join(", ")}`);
  const chosen = alertChoices();
  document.body.dataset.challengeAlerts = String(Number(document.body.dataset.challengeAlerts || 0) + fresh.length);
  if (chosen.sound) beep();
  if (chosen.notify && "Notification" in window && Notification.permission === "granted") {
    for (const c of fresh) {
      new Notification(t("challenge.new"), { body: `${t("challenge.from").replace("{name}", c.challenger.name)} — ${describe(c)}`, tag: c.challenge_id });
    }
  }
}

// -- the account's event stream -----------------------------------------------------------------------------------

let following = null; // the AbortController of the stream being read
let soon = null;

function schedule() {
  if (soon) return;
  soon = window.setTimeout(() => { soon = null; check(); }, 50); // a batch of events: one reading
}

/** Server-sent events read with fetch (the key goes in a header); resumed after the last id seen, here or in
 * another page of this browser, after a dropped connection. */
async function follow(account, controller) {
  const cursor = `ll.after.${account.account_id}`;
  let wait = 1000;
  while (!controller.signal.aborted) {
    try {
      const after = Number(localStorage.getItem(cursor) || 0);
      const path = `/accounts/${encodeURIComponent(account.account_id)}/stream?after=${after}`;
      const answer = await fetch(path, { headers: { Authorization: `Bearer ${account.key}`, Accept: "text/event-stream" },
        signal: controller.signal, cache: "no-store" });
      if (answer.status === 403 || answer.status === 404) { news(t("me.key_refused")); return; }
      if (answer.ok && answer.body) {
        wait = 1000;
        document.body.dataset.accountStream = "open";
        schedule(); // anything that happened while the stream was away
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const id = /^id: ?(\d+)$/m.exec(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            if (!id) continue; // a keep-alive comment
            if (Number(id[1]) > Number(localStorage.getItem(cursor) || 0)) localStorage.setItem(cursor, id[1]);
            schedule();
          }
        }
      }
    } catch { /* a dropped connection, or the page leaving: tried again below unless aborted */ }
    document.body.dataset.accountStream = "closed";
    if (controller.signal.aborted) return;
    await new Promise((resolve) => { window.setTimeout(resolve, wait); });
    wait = Math.min(wait * 2, 15000);
  }
}

/** (Re)start following the account this browser keeps, if any: the header's link, the bar, the stream. */
function start() {
  following?.abort();
  following = null;
  known = null;
  const account = held();
  const link = $("me");
  link.hidden = !account;
  if (account) {
    link.replaceChildren(el("span", { class: "visually-hidden", text: labelled("me.title") }), account.name);
    link.href = `/accounts/${encodeURIComponent(account.account_id)}`;
  }
  $("account-news").textContent = "";
  draw([], []);
  if (!account) return;
  following = new AbortController();
  follow(account, following);
  check();
}

window.addEventListener("storage", (event) => { if (event.key === ACCOUNT) { start(); changed(); } }); // another tab
start();
