// The seat page: one seat's view of a game (or a spectator's), kept live by the game's event stream, which resumes
// where it stopped after a dropped connection. The parts live beside it: the table (table.js), the move
// (moves.js), the ends of rounds and of the game (ends.js), the turn's alerts (alerts.js), the cards (cards.js).
import { announce, api, cardName, cardValue, count, data, el, labelled, seatLink, seats, showProblem, t } from "./common.js";
import { renderInvites } from "./invites.js";
import { turnAlerts, setUpAlerts } from "./alerts.js";
import { renderEnds } from "./ends.js";
import { renderMoves, setUpMoves } from "./moves.js";
import { renderHand, renderLastMove, renderPlayers, renderZones, setText } from "./table.js";

const game = data.game_id;
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("t");
if (token) seats.set(game, token);
else token = seats.get(game);
/** This page's own random id, sent with its stream: the seat's other open pages (devices) are told apart from it. */
const pageId = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

/** What every part of the page reads: the game, this seat's token, the last answer of GET /games/{id}. */
const ctx = {
  game,
  ruleset: data.ruleset,
  get token() { return token; },
  current: null,
  present: [],
  elsewhere: false,
  waiting: false,
  cardName: (c) => cardName(data.ruleset, c),
  cardValue: (c) => cardValue(data.ruleset, c),
  refresh: () => refresh(),
};
let storyLines = [];
// A seat that has just joined opens its page (and its stream) a moment after the join reaches the others: until a
// presence round can have seen it, it is shown present, not away (docs/web.md, Presence).
const JOIN_GRACE_MS = 8000;
const joinedAt = new Map(); // seat → when this page saw it taken
let heard = []; // presence as the referee last said it

let lastSeq = 0;
let source = null;
let clockTimer = null;

const $ = (id) => document.getElementById(id);

function nameOf(seat) {
  const s = ctx.current?.view.seats[seat];
  return s ? (s.name || t("seat.open")) : `#${seat}`;
}

/** Seats still open: the game waits for players (no deal yet) until each is taken. */
function openSeats(view) {
  return ctx.current.over ? [] : view.seats.filter((s) => s.open);
}

function renderStatus(view) {
  const { current } = ctx;
  const me = view.seat;
  document.body.dataset.waiting = String(ctx.waiting);
  setText($("heading"), current.players.map((n) => n || t("seat.open")).join(" · "));
  setText($("round"), view.round ? `${t("seat.round")} ${view.round}` : "");
  let status;
  if (current.over) {
    status = view.aborted ? t("seat.aborted")
      : `${t("seat.over")} ${labelled("seat.winners")}${view.winners.map(nameOf).join(", ")}`;
  } else if (ctx.waiting) {
    status = `${t("seat.waiting_players")} (${count(openSeats(view).length, "lobby.open_seat", "lobby.open_seats")})`;
  } else if (current.your_turn) status = t("seat.turn");
  else if (view.active !== null && view.active !== undefined) status = `${t("seat.waiting")} ${nameOf(view.active)}…`;
  else status = "";
  // who this page plays, then the news: on a phone the first part is said, not drawn (the seat's row says "you")
  const who = me === null ? t("seat.spectator") : `${t("seat.you_are")} ${nameOf(me)}.`;
  const said = `${who}${status ? ` ${status}` : ""}`;
  if ($("status").textContent !== said) {
    $("status").replaceChildren(el("span", { class: me === null ? "who" : "who mine" }, who), status ? ` ${status}` : "");
  }
  $("status").classList.toggle("mine", Boolean(current.your_turn));
  turnAlerts(Boolean(current.your_turn) && !current.over, $("heading").textContent);
}

function renderWaiting(view) {
  $("waiting-panel").hidden = !ctx.waiting;
  if (!ctx.waiting) return;
  $("waiting-seats").replaceChildren(...view.seats.map((s) => el("li", { class: s.open ? "open" : "taken" },
    `${t("lobby.seat")} ${s.seat + 1}${t("colon")} `, s.open ? el("em", { text: t("seat.open") })
      : el("strong", { text: `${s.name} (${t("seat.taken")})` }))));
}

/** The viewer's own locale for times: the browser's when it speaks the page's language, else the page's. */
function locale() {
  return navigator.language.startsWith(data.lang) ? navigator.language : data.lang;
}

/** m:ss, as clocks read. */
function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function renderClock(view) {
  const box = $("clock");
  window.clearInterval(clockTimer);
  const deadline = view.clock?.deadline;
  if (!deadline || ctx.current.over) { box.hidden = true; return; }
  // the deadline in the viewer's own time zone and clock format
  const local = new Date(deadline.at).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const tick = () => {
    const left = Math.max(0, Math.round((deadline.at - Date.now()) / 1000));
    const who = $("clock-who");
    if (who.dataset.name !== nameOf(deadline.seat)) {
      who.dataset.name = nameOf(deadline.seat);
      who.replaceChildren(el("span", { class: "clock-label", text: labelled("seat.clock") }), nameOf(deadline.seat));
    }
    const time = $("clock-left");
    time.textContent = minutes(left);
    time.setAttribute("datetime", `PT${left}S`);
    $("clock-until").textContent = `(${t("seat.until")} ${local})`;
    box.classList.toggle("low", left <= 10);
  };
  tick();
  box.hidden = false;
  clockTimer = window.setInterval(tick, 1000);
}

/** A story line, each deadline it names (`times`: the server's UTC text → Unix ms) shown in the viewer's time. */
function storyLine(line, times) {
  const item = el("li");
  let rest = line.trim();
  for (;;) {
    let first = null;
    for (const told of Object.keys(times)) {
      const at = rest.indexOf(told);
      if (at >= 0 && (first === null || at < first.at)) first = { at, told };
    }
    if (first === null) break;
    const when = new Date(times[first.told]);
    const local = when.toLocaleString(locale(), {
      year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
    });
    item.append(rest.slice(0, first.at), el("time", { datetime: when.toISOString(), text: local }));
    rest = rest.slice(first.at + first.told.length);
  }
  item.append(rest);
  return item;
}

function renderStory(lines, times, lastMove) {
  const list = $("story");
  const fresh = lines.slice(storyLines.length);
  const same = lines.length >= storyLines.length && storyLines.every((line, i) => lines[i] === line);
  if (!same) list.replaceChildren();
  const items = (same ? fresh : lines).map((line) => storyLine(line, times));
  list.append(...items);
  if (same && storyLines.length && fresh.length) announce(items.map((li) => li.textContent).join(" "));
  storyLines = lines;
  // the last line in sight, at the next frame: reading the list's height now would lay the page out mid-drawing
  if (items.length) window.requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  renderLastMove(lines, lastMove);
}

// -- the seat's link is a password: hidden until shown, copied, forgotten on this device ----------------------------

function renderTools(view) {
  $("organiser-tools").hidden = !seats.organiser(game) || ctx.current.over;
  $("seat-tools").hidden = view.seat === null;
  $("alerts").hidden = view.seat === null || ctx.current.over;
  $("side-tools").hidden = ["organiser-tools", "seat-tools", "alerts"].every((id) => $(id).hidden);
  if (view.seat === null) return;
  $("seat-link").value = seatLink(game, token);
  $("resign").hidden = ctx.current.over || ctx.waiting || !view.seats[view.seat].in_game; // nothing to resign yet
}

$("reveal-link").addEventListener("click", () => {
  const input = $("seat-link");
  const show = input.type === "password";
  input.type = show ? "text" : "password";
  $("reveal-link").setAttribute("aria-pressed", String(show));
  $("reveal-link").textContent = show ? t("seat.link.hide") : t("seat.link.reveal");
});

$("copy-link").addEventListener("click", async () => {
  const value = $("seat-link").value;
  try { await navigator.clipboard.writeText(value); } catch { $("seat-link").select(); }
  announce(t("lobby.copied"));
});

$("forget-seat").addEventListener("click", () => {
  if (!window.confirm(t("seat.forget.sure"))) return;
  seats.forget(game);
  location.assign(`/play/${encodeURIComponent(game)}`); // no fragment: this browser now only watches
});

$("resign").addEventListener("click", async () => {
  if (!window.confirm(t("seat.resign.sure"))) return;
  const answer = await api("POST", `/games/${encodeURIComponent(game)}/resign`, { token });
  if (!answer.ok) showProblem($("problem"), answer.body);
  refresh();
});

$("abort").addEventListener("click", async () => {
  if (!window.confirm(t("seat.abort.sure"))) return;
  const answer = await api("POST", `/games/${encodeURIComponent(game)}/abort`, { token: seats.organiser(game) });
  if (!answer.ok) showProblem($("problem"), answer.body);
  refresh();
});

$("rematch").addEventListener("click", async () => {
  const answer = await api("POST", `/games/${encodeURIComponent(game)}/rematch`, { token });
  if (!answer.ok) { showProblem($("problem"), answer.body); return; }
  if (answer.body.token) seats.set(answer.body.game_id, answer.body.token);
  location.assign(seatLink(answer.body.game_id, answer.body.token));
});

// -- keeping up -------------------------------------------------------------------------------------------------

let running = null;
let again = false;

async function refresh() {
  if (running) { again = true; return running; }
  running = (async () => {
    do {
      again = false;
      const path = `/games/${encodeURIComponent(game)}`;
      const [state, story] = await Promise.all([
        api("GET", path, { token }),
        api("GET", `/web${path}/story?lang=${data.lang}&page=${pageId}`, { token }),
      ]);
      if (state.status === 403 && token) { token = null; again = true; continue; } // not this game's: watch
      if (state.ok) {
        noteJoins(ctx.current?.view, state.body.view);
        ctx.current = state.body;
        if (story.ok) { heard = story.body.present; ctx.elsewhere = Boolean(story.body.elsewhere); }
        ctx.present = presence();
        ctx.lastMover = story.ok ? story.body.last_mover : null; // the referee's word on who moved last
        const view = ctx.current.view;
        ctx.waiting = openSeats(view).length > 0;
        renderStatus(view);
        renderWaiting(view);
        renderHand(ctx);
        renderPlayers(ctx);
        renderZones(ctx);
        renderMoves(ctx.current.legal_moves);
        renderClock(view);
        renderTools(view);
        renderElsewhere();
        renderInvites(game, openSeats(view).map((o) => o.seat), ctx.current.over);
        document.body.dataset.version = String(ctx.current.version);
        document.body.dataset.over = String(ctx.current.over);
        if (ctx.current.over && source) { source.close(); source = null; connection(""); }
        renderEnds(ctx);
      } else if (state.status === 404) {
        showProblem($("problem"), state.body);
      }
      if (story.ok) { renderStory(story.body.lines, story.body.times, story.body.last_move); $("story").dataset.version = String(story.body.version); }
    } while (again);
  })();
  try { await running; } finally { running = null; }
}

/** Seats open in `before` and taken in `after`: just joined. Presence is read again soon after, and once the grace
 * is over. */
function noteJoins(before, after) {
  if (!before || before.seats.length !== after.seats.length) return;
  for (const s of after.seats) {
    if (!before.seats[s.seat].open || s.open) continue;
    joinedAt.set(s.seat, performance.now());
    for (const ms of [1000, 3000, JOIN_GRACE_MS + 100]) window.setTimeout(pollPresence, ms);
  }
}

/** Who is present: the referee's word, or joined less than JOIN_GRACE_MS ago. */
function presence() {
  const now = performance.now();
  return heard.map((here, seat) => here || now - (joinedAt.get(seat) ?? -Infinity) < JOIN_GRACE_MS);
}

let soon = null;
function schedule() {
  if (soon) return;
  soon = window.setTimeout(() => { soon = null; refresh(); }, 0); // the events of one move arrive together: one refresh
}

function connection(text) { $("connection").textContent = text; }

/** "This seat is also open on another device": told by the server to this seat's pages only. */
function renderElsewhere() {
  $("elsewhere").hidden = !ctx.elsewhere || ctx.current?.over !== false;
}

function connect() {
  const query = new URLSearchParams({ after: String(lastSeq), page: pageId });
  if (token) query.set("token", token);
  source = new EventSource(`/games/${encodeURIComponent(game)}/stream?${query}`);
  const seen = (event) => {
    const seq = Number(event.lastEventId);
    if (seq > lastSeq) lastSeq = seq;
    schedule();
  };
  for (const type of data.event_types) source.addEventListener(type, seen);
  source.onopen = () => { connection(t("seat.connected")); schedule(); };
  source.onerror = () => {
    if (ctx.current?.over) { source?.close(); source = null; connection(""); return; }
    connection(t("seat.reconnecting"));
    if (source && source.readyState === EventSource.CLOSED) { // the browser gave up: start again from lastSeq
      source = null;
      window.setTimeout(connect, 2000);
    }
  };
}

// The story and the seat's tools fold away on a phone (closed at first), so that the table, the hand and the move
// fill its screen; on a wide screen they stand open in the side column.
for (const id of ["story-fold", "tools-fold"]) $(id).open = window.matchMedia("(min-width: 761px)").matches;
setUpMoves(ctx);
setUpAlerts();
window.addEventListener("hashchange", () => location.reload());
await refresh();
performance.mark("ll:rendered"); // the table, hand, moves and story drawn once (bench/page_weight.py)
lastSeq = ctx.current ? ctx.current.version : 0;
if (!ctx.current?.over) connect();
async function pollPresence() { // between events: who has the table open (docs/web.md, Presence)
  const answer = await api("GET", `/web/games/${encodeURIComponent(game)}/presence?page=${pageId}`, { token });
  if (answer.ok && ctx.current) {
    ctx.elsewhere = Boolean(answer.body.elsewhere);
    renderElsewhere();
  }
  if (answer.ok) heard = answer.body.present;
  if (answer.ok && ctx.current && JSON.stringify(presence()) !== JSON.stringify(ctx.present)) {
    ctx.present = presence();
    renderPlayers(ctx);
    renderMoves(ctx.current.legal_moves); // marks the targets again on the redrawn seats
  }
}
window.setInterval(pollPresence, 5000);
