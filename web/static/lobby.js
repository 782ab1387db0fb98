// The lobby: create a game, list the public ones live (the lobby's event stream), join, watch, rematch; My games
// (this browser's games, and an account's when its key is held here). The account panel and quick pairing are
// lobby_account.js.
import { announce, api, count, data, el, hideProblem, inviteLink, seatLink, seats, showProblem, t } from "./common.js";
import { held } from "./me.js";
import { copyButton } from "./lobby_account.js";

const form = document.getElementById("create");
const seatList = document.getElementById("seats");
const rulesetSelect = document.getElementById("ruleset");
const KINDS = ["me", "open", "heuristic", "random", "none"];

function seatRows() {
  const rs = data.rulesets[rulesetSelect.value];
  const [, most] = rs.players;
  const before = [...seatList.querySelectorAll("select")].map((s) => s.value);
  seatList.replaceChildren();
  for (let i = 0; i < most; i += 1) {
    const id = `seat-${i}`;
    const chosen = before[i] ?? (i === 0 ? "me" : i === 1 ? "open" : "none");
    const select = el("select", { id, name: id });
    for (const kind of KINDS) {
      if (kind === "none" && i < rs.players[0]) continue;
      select.append(el("option", { value: kind, selected: kind === chosen, text: t(`lobby.seat.${kind}`) }));
    }
    seatList.append(el("li", {}, el("label", { for: id, text: `${t("lobby.seat")} ${i + 1}` }), select));
  }
  document.querySelector(".option-2012").hidden = rulesetSelect.value !== "2012";
}

/** The organiser's name at the table: the one typed, else the name of the account this browser holds; "" when
 * neither is there (then nothing is created: the lobby asks for it). */
function myName() {
  return document.getElementById("my-name").value.trim() || (held()?.name ?? "").trim();
}

function request() {
  const players = [];
  const me = myName();
  let bots = 0;
  for (const select of seatList.querySelectorAll("select")) {
    const kind = select.value;
    if (kind === "me") players.push({ name: me });
    else if (kind === "open") players.push({ open: true });
    else if (kind === "heuristic" || kind === "random") {
      bots += 1;
      players.push({ name: `${data.lang === "fr" ? "Robot" : "Bot"} ${bots}`, bot: kind });
    }
  }
  const body = { ruleset: rulesetSelect.value, players, public: document.getElementById("public").checked };
  const options = { guard_unknown: document.getElementById("guard-unknown").value };
  if (rulesetSelect.value === "2012") options.tie_2012 = document.getElementById("tie-2012").value;
  body.options = options;
  const seconds = document.getElementById("turn-seconds").value;
  if (seconds) {
    body.turn_seconds = Number(seconds);
    body.on_timeout = document.getElementById("on-timeout").value;
  }
  const delay = document.getElementById("spectator-delay").value; // sent only when asked for: none is the default
  if (delay !== "") body.spectator_delay = Number(delay);
  return body;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = document.getElementById("create-error");
  hideProblem(box);
  const name = document.getElementById("my-name");
  const seated = [...seatList.querySelectorAll("select")].some((s) => s.value === "me");
  name.removeAttribute("aria-invalid");
  name.removeAttribute("aria-describedby");
  if (seated && !myName()) { // a player named by nobody: no game is made for "Me"
    box.replaceChildren(el("p", { text: t("lobby.name_needed") }));
    box.hidden = false;
    name.setAttribute("aria-invalid", "true");
    name.setAttribute("aria-describedby", "create-error");
    name.focus();
    return;
  }
  const answer = await api("POST", "/games", { body: request() });
  if (!answer.ok) {
    showProblem(box, answer.body);
    return;
  }
  const game = answer.body.game_id;
  made(game, Date.now());
  seats.setOrganiser(game, answer.body.organiser_token);
  const mine = answer.body.seats.find((s) => s.token);
  if (mine) seats.set(game, mine.token);
  const links = document.getElementById("invite-links");
  links.replaceChildren();
  const invites = answer.body.seats.filter((s) => s.invite).map((s) => ({ seat: s.seat, url: inviteLink(game, s.invite) }));
  if (invites.length) seats.setInvites(game, invites); // shown again on the seat page and in My games until taken
  invites.forEach((s) => {
    const url = s.url;
    const id = `invite-${s.seat}`;
    links.append(el("li", {},
      el("label", { for: id, text: `${t("lobby.seat")} ${s.seat + 1}` }),
      el("input", { id, value: url, readonly: true }),
      copyButton(url)));
  });
  const go = document.getElementById("created-go");
  go.href = seatLink(game, mine?.token);
  go.textContent = mine ? t("lobby.play") : t("lobby.watch");
  document.getElementById("created").hidden = false;
  announce(t("lobby.created"));
  refresh();
});

function describe(game) {
  const rs = data.rulesets[game.ruleset];
  const names = game.seats.map((s) => s.name || `(${t("lobby.seat.open")})`).join(", ");
  let text = `${rs ? rs.title : game.ruleset} — ${names}`;
  if (game.clock) text += ` — ${t("seat.clock")} ${game.clock.turn_seconds} s`;
  if (game.rated) text += ` — ${t("lobby.rated")}`;
  if (game.status === "open") text += ` — ${count(game.open_seats, "lobby.open_seat", "lobby.open_seats")}`;
  if (game.status === "finished") {
    const won = game.winners.join(", "); // the winners by name, joined players' included (the listing's own)
    text += game.aborted ? ` — ${t("lobby.aborted")}` : ` — ${t("lobby.winners")} ${won}`;
  }
  return text;
}

async function join(game, name, invite, created) {
  const box = document.getElementById("join-error");
  hideProblem(box);
  const body = { name };
  if (invite) body.invite = invite;
  const answer = await api("POST", `/games/${encodeURIComponent(game)}/join`, { body });
  if (!answer.ok) {
    showProblem(box, answer.body);
    box.scrollIntoView({ block: "nearest" });
    return false;
  }
  seats.set(game, answer.body.token);
  if (created) made(game, created);
  location.assign(seatLink(game, answer.body.token));
  return true;
}

async function rematch(game) {
  const box = document.getElementById("join-error");
  hideProblem(box);
  const answer = await api("POST", `/games/${encodeURIComponent(game)}/rematch`, { token: seats.get(game) });
  if (!answer.ok) { showProblem(box, answer.body); return; }
  const next = answer.body.game_id;
  if (answer.body.token) {
    seats.set(next, answer.body.token);
    location.assign(seatLink(next, answer.body.token));
  } else location.assign(seatLink(next));
}

function row(game) {
  const id = game.game_id;
  const li = el("li", { "data-game": id }, el("span", { class: "who", text: describe(game) }));
  const token = seats.get(id);
  if (token) li.append(el("a", { href: seatLink(id, token), text: t("lobby.play") }));
  else if (game.status === "open") {
    const field = `join-${id}`;
    const joinForm = el("form", { class: "join" },
      el("label", { for: field, text: t("lobby.join.as") }),
      el("input", { id: field, required: true, maxlength: 40, autocomplete: "nickname" }),
      el("button", { type: "submit", text: t("lobby.join") }));
    joinForm.addEventListener("submit", (event) => {
      event.preventDefault();
      join(id, joinForm.querySelector("input").value.trim(), null, game.created);
    });
    li.append(joinForm);
  }
  if (game.status !== "open" && !token) li.append(el("a", { href: seatLink(id), text: t("lobby.watch") }));
  if (game.status === "finished" && token) {
    const again = el("button", { type: "button", class: "secondary", text: t("lobby.rematch") });
    again.addEventListener("click", () => rematch(id));
    li.append(again);
  }
  return li;
}

function fill(list, games) {
  redraw(list, games.length ? games.map(row) : [el("li", { class: "empty", text: t("lobby.none") })]);
}

// A list is drawn again at every piece of news: what a person was typing in it, and where the keyboard was, stay.
const CONTROLS = "a, input, button";

function redraw(list, items) {
  const typed = [...list.querySelectorAll("input:not([readonly])")].map((input) => [input.id, input.value]);
  const focused = list.contains(document.activeElement) ? place(document.activeElement) : null;
  list.replaceChildren(...items);
  for (const [id, value] of typed) {
    const input = id && list.querySelector(`#${CSS.escape(id)}`);
    if (input && value) input.value = value;
  }
  if (!focused) return;
  const li = list.querySelector(`li[data-game="${CSS.escape(focused.game)}"]`);
  const target = li ? li.querySelectorAll(CONTROLS)[focused.at] : null;
  if (!target) return;
  target.focus();
  if (target.tagName === "INPUT" && focused.start !== null) target.setSelectionRange(focused.start, focused.end);
}

function place(element) {
  const li = element.closest("li[data-game]");
  if (!li) return null;
  const at = [...li.querySelectorAll(CONTROLS)].indexOf(element);
  const input = element.tagName === "INPUT";
  const [start, end] = input ? [element.selectionStart, element.selectionEnd] : [null, null];
  return { game: li.dataset.game, at, start, end };
}

// The lists are three requests, and news may come while they are on their way. A refresh never draws over a newer
// one's drawing (its answers may arrive last), and a game is shown in the furthest list it reached: a game only goes
// forward, open → running → finished, so one that moved between two answers is not listed twice.
const STATUSES = ["open", "running", "finished"];
let started = 0;
let drawn = 0;

async function refresh() {
  const ticket = ++started;
  const lists = await Promise.all(STATUSES.map((status) => api("GET", `/games?status=${status}&limit=20`)));
  if (ticket < drawn) return;
  drawn = ticket;
  const further = new Set();
  const listed = new Map(); // game id -> the public listing's entry (its `created` among others)
  for (let i = STATUSES.length - 1; i >= 0; i--) {
    if (!lists[i].ok) continue;
    const games = lists[i].body.games.filter((game) => !further.has(game.game_id));
    games.forEach((game) => { further.add(game.game_id); listed.set(game.game_id, game); });
    fill(document.getElementById(STATUSES[i]), games);
  }
  const ofAccount = await accountGames();
  const local = seats.games().filter((g) => !ofAccount.some((a) => a.game === g)).slice(0, 10);
  const ofBrowser = await Promise.all(local.map((g) => browserGame(g, listed.get(g))));
  if (ticket < drawn) return;
  const mine = [...ofAccount, ...ofBrowser];
  redraw(document.getElementById("mine"), mine.length
    ? mine.map(mineRow) : [el("li", { class: "empty", text: t("lobby.none") })]);
}

// -- My games ----------------------------------------------------------------------------------------------------
// Each game says what it is: its ruleset, who sits there, how it stands, when it was made. An account's (its key
// kept by me.js; it follows the account across devices) are one request, `GET /accounts/{id}/games`, which needs no
// key; this browser's other games are one `GET /games/{id}` each (with the seat's token when this browser holds
// one, so "won" or "lost" can be said), read once more at each refresh until the game is over, then never again.

const MOMENT = { dateStyle: "medium", timeStyle: "short" };
const when = new Intl.DateTimeFormat(data.lang === "fr" ? "fr-FR" : "en-GB", MOMENT);
const reads = new Map(); // game id -> its entry being read (every refresh meanwhile shares it), or read once over
const CREATED = "ll.created"; // game id -> Unix ms, for the games this lobby made or joined (GET /games/{id} omits it)

function made(game, at) {
  const known = JSON.parse(localStorage.getItem(CREATED) || "{}");
  known[game] = at;
  const kept = Object.entries(known).sort((a, b) => b[1] - a[1]).slice(0, 50); // as many as `seats.games()` keeps
  localStorage.setItem(CREATED, JSON.stringify(Object.fromEntries(kept)));
}

const SAID = { // how a game stands, for its seat (an account's `status`), or for a spectator ("over")
  waiting: "lobby.mine.waiting", playing: "lobby.mine.playing", resigned: "lobby.mine.resigned", won: "lobby.mine.won",
  lost: "lobby.mine.lost", aborted: "lobby.mine.aborted", over: "lobby.mine.over",
};

async function accountGames() {
  const account = held();
  if (!account) return [];
  const answer = await api("GET", `/accounts/${encodeURIComponent(account.account_id)}/games?limit=20`);
  if (!answer.ok) return [];
  return answer.body.games.map((g) => ({
    game: g.game_id, ruleset: g.ruleset, names: g.opponents.map((o) => o.name), others: true,
    state: g.status in SAID ? g.status : "playing", created: g.created, rated: g.rated,
  }));
}

/** `game` as this browser sees it; `listing` its entry in the lobby's listings if there (it says when it was made). */
function browserGame(game, listing) {
  if (!reads.has(game)) {
    reads.set(game, readGame(game, listing).then((entry) => {
      if (!entry.over) reads.delete(game); // a game over changes no more: never read again
      return entry;
    }));
  }
  return reads.get(game);
}

async function readGame(game, listing) {
  const answer = await api("GET", `/games/${encodeURIComponent(game)}`, { token: seats.get(game) });
  const created = listing?.created ?? JSON.parse(localStorage.getItem(CREATED) || "{}")[game];
  if (!answer.ok) return { game, unread: true };
  const view = answer.body.view;
  const mine = Number.isInteger(view.seat) ? view.seat : null;
  let state = view.seats.some((s) => s.open) ? "waiting" : "playing";
  if (answer.body.over) {
    state = view.aborted ? "aborted" : mine === null ? "over" : view.winners.includes(mine) ? "won" : "lost";
  } else if (mine !== null && !view.seats[mine].in_game) state = "resigned";
  const entry = {
    game, ruleset: view.ruleset, others: mine !== null, state, created, rated: listing?.rated, over: answer.body.over,
    names: view.seats.filter((s) => s.seat !== mine).map((s) => (s.open ? `(${t("lobby.seat.open")})` : s.name)),
  };
  return entry;
}

function mineRow(entry) {
  const { game } = entry;
  const link = el("a", { class: "who", href: seatLink(game, seats.get(game)) });
  const li = el("li", { "data-game": game, "data-state": entry.state }, link);
  if (entry.unread) {
    link.textContent = game;
    li.append(el("span", { class: "state", text: t("lobby.mine.unread") }));
  } else {
    const title = data.rulesets[entry.ruleset]?.title ?? entry.ruleset;
    const names = entry.names.join(", ");
    link.textContent = !names ? title : `${title} — ${entry.others ? `${t("lobby.mine.with")} ` : ""}${names}`;
    li.append(el("span", { class: "state", text: t(SAID[entry.state]) }));
    if (entry.rated) li.append(el("span", { class: "rated", text: t("lobby.rated") }));
    if (entry.created) {
      const text = `${t("lobby.mine.created")} ${when.format(entry.created)}`;
      li.append(el("time", { datetime: new Date(entry.created).toISOString(), text }));
    }
  }
  const invites = invitesOf(game);
  if (invites) li.append(invites);
  return li;
}

/** The invite links the organiser still holds for `game` (the seat page forgets them once the seats are full). */
function invitesOf(game) {
  const links = seats.invites(game);
  if (!links.length) return null;
  return el("ul", { class: "invites", "aria-label": t("lobby.invites") }, ...links.map((s) => {
    const id = `mine-${game}-${s.seat}`;
    return el("li", {}, el("label", { for: id, text: `${t("lobby.seat")} ${s.seat + 1}` }),
      el("input", { id, value: s.url, readonly: true }), copyButton(s.url));
  }));
}

let pending = null;
function soon() {
  if (pending) return;
  pending = window.setTimeout(() => { pending = null; refresh(); }, 100);
}

async function invited() {
  const params = new URLSearchParams(location.hash.slice(1));
  const game = params.get("join");
  if (!game) return;
  const invite = params.get("invite");
  const panel = document.getElementById("invited");
  const info = await api("GET", `/games/${encodeURIComponent(game)}`);
  if (info.ok) {
    document.getElementById("invited-game").textContent =
      `${data.rulesets[info.body.view.ruleset]?.title ?? ""} — ${info.body.players.filter(Boolean).join(", ")}`;
  }
  panel.hidden = false;
  document.getElementById("join-invite").addEventListener("submit", (event) => {
    event.preventDefault();
    join(game, document.getElementById("invite-name").value.trim(), invite);
  });
  document.getElementById("invite-name").focus();
}

rulesetSelect.addEventListener("change", seatRows);
seatRows();
refresh();
window.addEventListener("ll-account", (event) => { if (!event.detail.challenges) refresh(); });
invited();
const news = new EventSource("/lobby/stream");
// The stream starts after the news head it read on opening: a game opened before that is in the listing fetched now.
news.onopen = soon;
news.onmessage = soon;
for (const kind of ["game_opened", "seat_filled", "game_started", "game_finished"]) news.addEventListener(kind, soon);
