// The seat page: one seat's view of a game (or a spectator's), its legal moves as controls, the table, the story,
// all kept live by the game's event stream, which resumes where it stopped after a dropped connection.
import {
  api, announce, cardName, cardValue, count, data, el, hideProblem, labelled, seatLink, seats, showProblem, t,
} from "./common.js";
import { renderInvites } from "./invites.js";

const game = data.game_id;
const ruleset = data.ruleset;
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("t");
if (token) seats.set(game, token);
else token = seats.get(game);

let current = null; // the last answer of GET /games/{id}
let storyLines = [];
let present = [];
let lastSeq = 0;
let source = null;
let clockTimer = null;

const $ = (id) => document.getElementById(id);

function card(id, tag = "li") {
  return el(tag, { class: "card", "data-card": id },
    el("span", { class: "value", text: String(cardValue(ruleset, id)) }), " ", el("span", { class: "name", text: cardName(ruleset, id) }));
}

function nameOf(seat) {
  const s = current?.view.seats[seat];
  return s ? (s.name || t("seat.open")) : `#${seat}`;
}

// -- the table --------------------------------------------------------------------------------------------------

/** Seats still open: the game waits for players (no deal yet) until each is taken. */
function openSeats(view) {
  return current.over ? [] : view.seats.filter((s) => s.open);
}

function renderStatus(view) {
  const me = view.seat;
  const waiting = openSeats(view).length > 0;
  document.body.dataset.waiting = String(waiting);
  $("heading").textContent = current.players.map((n) => n || t("seat.open")).join(" · ");
  $("round").textContent = view.round ? `${t("seat.round")} ${view.round}` : "";
  let status;
  if (current.over) {
    status = view.aborted ? t("seat.aborted")
      : `${t("seat.over")} ${labelled("seat.winners")}${view.winners.map(nameOf).join(", ")}`;
  } else if (waiting) {
    status = `${t("seat.waiting_players")} (${count(openSeats(view).length, "lobby.open_seat", "lobby.open_seats")})`;
  } else if (current.your_turn) status = t("seat.turn");
  else if (view.active !== null && view.active !== undefined) status = `${t("seat.waiting")} ${nameOf(view.active)}…`;
  else status = "";
  if (me === null) status = `${t("seat.spectator")} ${status}`;
  else status = `${t("seat.you_are")} ${nameOf(me)}. ${status}`;
  $("status").textContent = status;
}

function renderHand(view) {
  $("hand-panel").hidden = view.seat === null || openSeats(view).length > 0; // no hand before the deal
  $("hand").replaceChildren(...view.hand.map((c) => card(c)));
}

function renderPlayers(view) {
  const items = view.seats.map((s) => {
    const tags = el("span", { class: "tags" });
    const tag = (cls, text) => tags.append(el("span", { class: `tag ${cls}`, text }));
    if (s.seat === view.seat) tag("you", t("seat.you"));
    if (view.active === s.seat && !current.over) tag("active", "▶");
    if (s.open) tag("open", t("seat.open"));
    else if (!current.bots[s.seat]) tag(present[s.seat] ? "present" : "absent", present[s.seat] ? t("seat.present") : t("seat.absent"));
    if (s.protected) tag("protected", t("seat.protected"));
    if (!s.in_game) tag("gone", t("seat.gone"));
    else if (!s.in_round && view.round) tag("out", t("seat.out"));
    const front = el("ol", { class: "cards inline front", "aria-label": t("seat.played") }, ...s.front.map((c) => card(c)));
    const li = el("li", { "data-seat": String(s.seat) },
      el("span", { class: "name", text: s.name || t("seat.open") }), tags,
      el("div", {}, labelled("seat.favors"), el("strong", { class: "favors", text: String(s.favors) })),
      el("div", {}, labelled("seat.played"), s.front.length ? front : el("span", { text: t("seat.none") })));
    if (s.known_hand) {
      li.append(el("div", { class: "known" }, labelled("seat.known"), card(s.known_hand, "span")));
    }
    return li;
  });
  $("players").replaceChildren(...items);
}

function renderZones(view) {
  $("deck-line").hidden = openSeats(view).length > 0; // no deck before the deal
  $("unseen-box").hidden = openSeats(view).length > 0;
  $("deck-size").textContent = String(view.deck_size);
  $("face-up-box").hidden = view.face_up.length === 0;
  $("face-up").replaceChildren(...view.face_up.map((c) => card(c)));
  $("deck-known-box").hidden = view.deck_known.length === 0;
  $("deck-known").replaceChildren(...view.deck_known.map((k) =>
    el("li", {}, card(k.card, "span"), ` (${k.from_top + 1} ${t("seat.from_top")})`)));
  $("unseen").replaceChildren(...Object.entries(view.unseen).map(([c, n]) =>
    el("li", { "data-unseen": c }, card(c, "span"), ` × ${n}`)));
}

function renderClock(view) {
  const box = $("clock");
  window.clearInterval(clockTimer);
  const deadline = view.clock?.deadline;
  if (!deadline || current.over) { box.hidden = true; return; }
  const tick = () => {
    const left = Math.max(0, Math.round((deadline.at - Date.now()) / 1000));
    box.textContent = `${labelled("seat.clock")}${nameOf(deadline.seat)} — ${count(left, "seat.second", "seat.seconds")}`;
  };
  tick();
  box.hidden = false;
  clockTimer = window.setInterval(tick, 1000);
}

function renderStory(lines) {
  const list = $("story");
  const fresh = lines.slice(storyLines.length);
  const same = lines.length >= storyLines.length && storyLines.every((line, i) => lines[i] === line);
  if (!same) list.replaceChildren();
  for (const line of same ? fresh : lines) list.append(el("li", { text: line.trim() }));
  if (same && storyLines.length && fresh.length) announce(fresh.map((l) => l.trim()).join(" "));
  storyLines = lines;
  list.scrollTop = list.scrollHeight;
}

function renderTools(view) {
  $("organiser-tools").hidden = !seats.organiser(game) || current.over;
  $("seat-tools").hidden = view.seat === null;
  if (view.seat === null) return;
  $("seat-link").value = seatLink(game, token);
  $("resign").hidden = current.over || !view.seats[view.seat].in_game;
  $("rematch").hidden = !current.over || view.aborted;
}

// -- the moves --------------------------------------------------------------------------------------------------

let movesVersion = -1;

// Nothing is chosen for the player: a new move's controls start empty, so no click meant for the last move can
// play this one. Only a choice that follows from the player's own (the one target, the one order) is made for them.
function radios(name, legend, choices, onChange, { single = false } = {}) {
  const set = el("fieldset", { id: `choose-${name}` }, el("legend", { text: legend }));
  choices.forEach(([value, label], i) => {
    const id = `${name}-${i}`;
    const input = el("input", { type: "radio", name, id, value: String(value), checked: single && choices.length === 1 });
    if (onChange) input.addEventListener("change", onChange);
    set.append(el("span", { class: "choice" }, input, el("label", { for: id }, label)));
  });
  return set;
}

// Controls drawn a moment ago ignore the pointer for a moment (docs/web.md, Nothing played blind): a second click
// of a double-click, or a click aimed at the controls just replaced, lands on nothing. The keyboard is not held
// back (its clicks have `detail` 0): it moves only where the focus shows.
export const SETTLE_MS = 400;
let drawnAt = -Infinity;
let armTimer = null;

function drawn() {
  const form = $("moves");
  drawnAt = performance.now();
  form.dataset.armed = "no";
  window.clearTimeout(armTimer);
  armTimer = window.setTimeout(() => { form.dataset.armed = "yes"; }, SETTLE_MS);
}

$("moves").addEventListener("click", (event) => {
  if (event.detail > 0 && performance.now() - drawnAt < SETTLE_MS) {
    event.preventDefault();
    event.stopPropagation();
  }
}, true);

function chosen(form, name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value;
}

function unique(values) {
  return [...new Set(values.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v));
}

function renderMoves(legal) {
  const form = $("moves");
  $("moves-panel").hidden = legal.length === 0;
  if (current.version === movesVersion) return;
  movesVersion = current.version;
  // A keyboard player keeps their place: from the move they sent to the status line while the others play,
  // and back to the first control of their next move.
  const hadFocus = form.contains(document.activeElement) || document.activeElement === $("status");
  form.replaceChildren();
  if (legal.length === 0) {
    form.dataset.armed = "yes";
    if (hadFocus) $("status").focus();
    return;
  }
  drawn();
  if (legal[0].type === "return") {
    const keeps = unique(legal.map((m) => m.keep));
    const bottomPart = el("div", { id: "bottom-part" });
    const showBottoms = () => {
      const keep = chosen(form, "keep");
      const orders = legal.filter((m) => m.keep === keep).map((m) => m.bottom);
      bottomPart.replaceChildren();
      if (!keep) return;
      bottomPart.append(radios("bottom", t("seat.bottom"),
        orders.map((o) => [o.join(","), o.map((c) => cardName(ruleset, c)).join(" → ")]), null, { single: true }));
    };
    form.append(radios("keep", t("seat.keep"), keeps.map((c) => [c, card(c, "span")]), showBottoms), bottomPart);
    showBottoms();
  } else {
    const cards = unique(legal.map((m) => m.card));
    const targetPart = el("div", { id: "target-part" });
    const guessPart = el("div", { id: "guess-part" });
    const showGuesses = () => {
      const c = chosen(form, "card");
      const target = chosen(form, "target");
      const guesses = unique(legal.filter((m) => m.card === c && String(m.target) === target && m.guess).map((m) => m.guess));
      guessPart.replaceChildren();
      if (!guesses.length) return;
      const select = el("select", { id: "guess", name: "guess" }, el("option", { value: "", text: "—" }),
        ...guesses.map((g) => el("option", { value: g, text: `${cardName(ruleset, g)} (${cardValue(ruleset, g)})` })));
      guessPart.append(el("label", { for: "guess", text: t("seat.guess") }), select);
    };
    const showTargets = () => {
      const c = chosen(form, "card");
      const targets = unique(legal.filter((m) => m.card === c && m.target !== undefined).map((m) => m.target));
      targetPart.replaceChildren();
      if (targets.length) {
        targetPart.append(radios("target", t("seat.target"), targets.map((s) => [s, nameOf(s)]), showGuesses, { single: true }));
      }
      showGuesses();
    };
    form.append(radios("card", t("seat.card"), cards.map((c) => [c, card(c, "span")]), showTargets), targetPart, guessPart);
    showTargets();
  }
  form.append(el("p", {}, el("button", { type: "submit", id: "play", text: t("seat.play") })));
  if (hadFocus) form.querySelector("input, select, button").focus();
}

$("moves").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  let body;
  if (form.querySelector('input[name="keep"]')) {
    body = { type: "return", keep: chosen(form, "keep"), bottom: (chosen(form, "bottom") || "").split(",").filter(Boolean) };
  } else {
    body = { type: "play", card: chosen(form, "card") };
    const target = chosen(form, "target");
    if (target !== undefined) body.target = Number(target);
    const guess = form.querySelector("#guess")?.value;
    if (guess) body.guess = guess;
  }
  const missing = !body.card && !body.keep ? "card"
    : form.querySelector('input[name="target"]') && body.target === undefined ? "target"
      : form.querySelector("#guess") && !body.guess ? "guess"
        : form.querySelector('input[name="bottom"]') && !chosen(form, "bottom") ? "bottom" : null;
  if (missing) { // nothing is sent until every part of the move is the player's own choice
    const what = missing === "card" && body.type === "return" ? "keep" : missing;
    announce(`${t("seat.choose")} ${t(`seat.${what}`)}`);
    form.querySelector(what === "guess" ? "#guess" : `input[name="${what}"]`)?.focus();
    return;
  }
  if (form.dataset.busy) return; // one move at a time (not `disabled`: that would take the keyboard's focus away)
  form.dataset.busy = "yes";
  const answer = await api("POST", `/games/${encodeURIComponent(game)}/moves`, { body, token });
  delete form.dataset.busy;
  if (!answer.ok) {
    showProblem($("problem"), answer.body);
    return;
  }
  hideProblem($("problem"));
  refresh();
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

$("copy-link").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText($("seat-link").value); } catch { $("seat-link").select(); }
  announce(t("lobby.copied"));
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
        api("GET", `/web${path}/story?lang=${data.lang}`, { token }),
      ]);
      if (state.status === 403 && token) { token = null; again = true; continue; } // not this game's: watch
      if (state.ok) {
        current = state.body;
        if (story.ok) present = story.body.present;
        const view = current.view;
        renderStatus(view);
        renderHand(view);
        renderMoves(current.legal_moves);
        renderPlayers(view);
        renderZones(view);
        renderClock(view);
        renderTools(view);
        renderInvites(game, openSeats(view).map((o) => o.seat), current.over);
        document.body.dataset.version = String(current.version);
        document.body.dataset.over = String(current.over);
        if (current.over && source) { source.close(); source = null; connection(""); }
      } else if (state.status === 404) {
        showProblem($("problem"), state.body);
      }
      if (story.ok) { renderStory(story.body.lines); $("story").dataset.version = String(story.body.version); }
    } while (again);
  })();
  try { await running; } finally { running = null; }
}

let soon = null;
function schedule() {
  if (soon) return;
  soon = window.setTimeout(() => { soon = null; refresh(); }, 60);
}

function connection(text) { $("connection").textContent = text; }

function connect() {
  const query = new URLSearchParams({ after: String(lastSeq) });
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
    if (current?.over) { source?.close(); source = null; connection(""); return; }
    connection(t("seat.reconnecting"));
    if (source && source.readyState === EventSource.CLOSED) { // the browser gave up: start again from lastSeq
      source = null;
      window.setTimeout(connect, 2000);
    }
  };
}

window.addEventListener("hashchange", () => location.reload());
await refresh();
performance.mark("ll:rendered"); // the table, hand, moves and story drawn once (bench/page_weight.py)
lastSeq = current ? current.version : 0;
if (!current?.over) connect();
async function pollPresence() { // between events: who has the table open (docs/web.md, Presence)
  const answer = await api("GET", `/web/games/${encodeURIComponent(game)}/presence`);
  if (answer.ok && current && JSON.stringify(answer.body.present) !== JSON.stringify(present)) {
    present = answer.body.present;
    renderPlayers(current.view);
  }
}
window.setInterval(pollPresence, 5000);
