// The table of the seat page: the seats around it (favors, discards in order, protection, who is out, whose turn),
// the deck (a pile of backs), the set-aside card and the face-up cards in the middle, the hand drawn as cards (the
// control that chooses the card to play), and the last move marked. Each part is drawn again only when what it
// shows changed (a key per seat's row, per list, per text): an update redraws one or two rows, not the table.
import { count, el, labelled, t } from "./common.js";
import { cardFace, theCard } from "./cards.js";
import { focusSoon } from "./moves.js";

const $ = (id) => document.getElementById(id);

// Where each seat sits, counted clockwise from the viewer's own place at the bottom (grid areas of app.css).
const PLACES = {
  1: ["b"], 2: ["b", "t"], 3: ["b", "tl", "tr"], 4: ["b", "l", "t", "r"], 5: ["b", "l", "tl", "tr", "r"],
  6: ["b", "l", "tl", "t", "tr", "r"],
};

let lastFronts = null; // each seat's played cards when last drawn, to find the move that just happened
let lastActive = null; // whose turn it was then
let lastSeat = null; // the seat whose card was played last (marked until the next move)
const drawnFor = new WeakMap(); // a seat's row or a zone's list → the key of what it was drawn for

/** The seat that just played: the one the referee's story names as the last to move (two moves may arrive in one
 * drawing: a bot answers at once), else the one whose turn it was, if its played cards grew since the last drawing
 * (else the first whose did); null when nothing was played (or a new round began). */
function whoMoved(view, lastMover) {
  const fronts = view.seats.map((s) => s.front.length);
  let moved = null;
  if (lastFronts && lastFronts.length === fronts.length) {
    const grew = fronts.map((n, i) => n > lastFronts[i]);
    moved = [lastMover, lastActive].find((s) => s !== null && s !== undefined && grew[s]) ?? grew.indexOf(true);
    if (moved === -1) moved = null;
    if (moved === null && fronts.some((n, i) => n < lastFronts[i])) lastSeat = null; // a new round
  }
  lastFronts = fronts;
  lastActive = view.active;
  return moved;
}

export function renderPlayers(ctx) {
  const { current, ruleset, present } = ctx;
  const view = current.view;
  const moved = whoMoved(view, ctx.lastMover);
  if (moved !== null) lastSeat = moved;
  const n = view.seats.length;
  const me = view.seat ?? 0;
  // each row drawn again only when what it shows changed (its key): most moves change one or two rows
  const keys = view.seats.map((s) => JSON.stringify([s, view.seat, view.active === s.seat && !current.over && !ctx.waiting,
    present[s.seat], current.bots[s.seat], current.over, Boolean(view.round), s.seat === lastSeat, s.seat === moved,
    PLACES[n]?.[(s.seat - me + n) % n]]));
  const list = $("players");
  const rows = [...list.children];
  const kept = rows.length === n ? rows.map((li, i) => (drawnFor.get(li) === keys[i] ? li : null)) : [];
  const items = view.seats.map((s, i) => {
    if (kept[i]) return kept[i];
    const tags = el("span", { class: "tags" });
    const tag = (cls, text) => tags.append(el("span", { class: `tag ${cls}`, text }));
    if (s.seat === view.seat) tag("you", t("seat.you"));
    const turn = view.active === s.seat && !current.over && !ctx.waiting;
    if (turn) tag("active", `▶ ${s.seat === view.seat ? t("seat.turn_title") : t("seat.plays_now")}`);
    // an open seat is named "open seat" already; once the game is over, its streams close: nobody is "away"
    if (!s.open && !current.bots[s.seat] && !current.over) tag(present[s.seat] ? "present" : "absent", present[s.seat] ? t("seat.present") : t("seat.absent"));
    if (s.protected) tag("protected", t("seat.protected"));
    if (!s.in_game) tag("gone", t("seat.gone"));
    else if (!s.in_round && view.round) tag("out", t("seat.out"));
    const front = el("ol", { class: "cards inline front", "aria-label": t("seat.played") },
      ...s.front.map((c, i) => {
        const face = cardFace(ruleset, c);
        if (s.seat === lastSeat && i === s.front.length - 1) {
          face.classList.add("last");
          if (s.seat === moved) face.classList.add("fresh"); // animated once, when it happens
          face.append(el("span", { class: "visually-hidden", text: ` (${t("seat.last_move")})` }));
        }
        return face;
      }));
    const hearts = el("span", { class: "hearts", "aria-hidden": "true", text: "♥".repeat(Math.min(s.favors, 9)) });
    // the favors beside the name: "Favors: 2 ♥♥" (on a phone "♥ 2", the word said to a screen reader only)
    const favors = el("span", { class: "fav" }, el("span", { class: "heart", "aria-hidden": "true", text: "♥" }),
      el("span", { class: "fav-label", text: labelled("seat.favors") }),
      el("strong", { class: "favors", text: String(s.favors) }), " ", hearts);
    const li = el("li", { "data-seat": String(s.seat), "data-place": PLACES[n]?.[(s.seat - me + n) % n] ?? "" },
      el("div", { class: "who" }, el("span", { class: "name", text: s.name || t("seat.open") }), " ", favors, " ", tags),
      el("div", { class: "played" }, el("span", { class: "played-label", text: labelled("seat.played") }), s.front.length ? front : el("span", { class: "none", text: t("seat.none") })));
    if (turn) li.classList.add("turn");
    if (s.seat === view.seat) li.classList.add("me");
    if (!s.in_round && view.round) li.classList.add("is-out");
    if (s.known_hand) li.append(el("div", { class: "known" }, labelled("seat.known"), cardFace(ruleset, s.known_hand, { tag: "span" })));
    drawnFor.set(li, keys[i]);
    return li;
  });
  if (rows.length !== n) list.replaceChildren(...items);
  else items.forEach((li, i) => { if (li !== rows[i]) rows[i].replaceWith(li); });
}

/** Text written only when it changed (writing the same text still makes the browser lay the page out again). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** A list drawn again by `draw` only when the data it shows changed. */
function redraw(list, shown, draw) {
  const key = JSON.stringify(shown);
  if (drawnFor.get(list) === key) return;
  drawnFor.set(list, key);
  list.replaceChildren(...draw());
}

export function renderZones(ctx) {
  const { current, ruleset, waiting } = ctx;
  const view = current.view;
  $("deck-line").hidden = waiting; // no deck before the deal
  $("felt").hidden = waiting;
  $("unseen-box").hidden = waiting;
  // the deck as a pile of backs (a few, however many cards: its count is written on it), the set-aside card beside it
  setText($("deck-size"), String(view.deck_size));
  setText($("deck-text"), `${labelled("seat.deck.label")}${count(view.deck_size, "seat.deck.card", "seat.deck.cards")}`);
  const backs = $("deck").querySelector(".backs");
  if (backs.children.length !== Math.min(view.deck_size, 4)) {
    backs.replaceChildren(...Array.from({ length: Math.min(view.deck_size, 4) }, () => el("span", { class: "back" })));
  }
  $("deck").classList.toggle("empty", view.deck_size === 0);
  $("set-aside").hidden = !view.set_aside_face_down;
  $("face-up-box").hidden = view.face_up.length === 0;
  redraw($("face-up"), view.face_up, () => view.face_up.map((c) => cardFace(ruleset, c)));
  $("deck-known-box").hidden = view.deck_known.length === 0;
  redraw($("deck-known"), view.deck_known, () => view.deck_known.map((k) =>
    el("li", {}, cardFace(ruleset, k.card, { tag: "span" }), el("span", { class: "from-top", text: ` (${k.from_top + 1} ${t("seat.from_top")})` }))));
  redraw($("unseen"), view.unseen, () => Object.entries(view.unseen).map(([c, n]) =>
    el("li", { "data-unseen": c }, cardFace(ruleset, c, { tag: "span" }), ` × ${n}`)));
}

let handDrawn = null; // the seat, cards and choices the hand was last drawn for: drawn again only when they change

/** The hand as cards. On the seat's turn to play, each card is the control that chooses it (a button, moves.js
 * marks the chosen one with `aria-pressed`), and so after the Chancellor for the card kept; a card the rules forbid
 * (the Countess rule) is greyed, with the reason in it. A keyboard player's focus on a card redrawn goes to the
 * status line (moves.js takes it on from there). */
export function renderHand(ctx) {
  const { current, ruleset, waiting } = ctx;
  const view = current.view;
  $("hand-panel").hidden = view.seat === null || waiting; // no hand before the deal
  // the cards to choose from: the card to play, or, after the Chancellor, the card to keep
  const keeping = current.legal_moves.some((m) => m.type === "return");
  const plays = current.legal_moves.filter((m) => m.type === (keeping ? "return" : "play"))
    .map((m) => (keeping ? m.keep : m.card));
  // each new decision of the seat draws its cards anew, as its controls are (even the same cards as before)
  const key = JSON.stringify([view.seat, view.hand, keeping, [...new Set(plays)], plays.length ? current.version : null]);
  if (key === handDrawn) return;
  handDrawn = key;
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  if (plays.length) hand.setAttribute("aria-describedby", "hand-hint"); // how to choose, when there is a choice
  else hand.removeAttribute("aria-describedby");
  $("hand-hint").textContent = t(keeping ? "seat.hand.keep" : "seat.hand.pick");
  hand.replaceChildren(...view.hand.map((c, i) => {
    if (!plays.length) return cardFace(ruleset, c, { size: "full" });
    const face = cardFace(ruleset, c, { tag: "button", size: "full" });
    face.type = "button";
    face.setAttribute("aria-pressed", "false");
    if (!plays.includes(c)) {
      const why = t("seat.unplayable").replace("{card}", theCard(ruleset, plays[0]));
      face.classList.add("unplayable");
      face.setAttribute("aria-disabled", "true");
      face.setAttribute("aria-describedby", `hand-why-${i}`);
      face.title = why;
      face.append(el("span", { class: "reason", id: `hand-why-${i}`, text: why }));
    } else face.classList.add("playable");
    return el("li", { class: "hand-card" }, face);
  }));
  if (hadFocus) focusSoon(() => $("status"));
}

/** The story's line of the last move (`index`, which the referee names: a round's opening, the seed's reveal, a
 * draw or the clock's reminders are not moves), at the top of the page (on a phone too, without scrolling). */
export function renderLastMove(lines, index) {
  const last = index === null || index === undefined ? "" : (lines[index] ?? "").trim();
  const box = $("last-move");
  box.hidden = !last;
  if (box.dataset.text !== last) {
    box.dataset.text = last;
    $("last-move-text").textContent = last;
    // the flash again: its other animation name restarts it (no reading of the layout in the middle of a drawing)
    const again = box.classList.contains("fresh");
    box.classList.toggle("fresh", !again);
    box.classList.toggle("fresh-again", again);
  }
}
