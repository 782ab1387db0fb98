// A seat's move, chosen by pointing or with the keyboard. The hand is the control for the card to play: each card
// is a button (table.js; Tab to it, Enter or Space to choose it, `aria-pressed` says which is chosen, a card the
// rules forbid says why); no second list of the same cards. Then a target: a player at the table (the targets the
// rules allow highlighted, the others with the reason) or the form's radio buttons; for a Guard a card from a grid
// or the card-named list. After the Chancellor the hand is the control again, for the card kept (the same buttons),
// and the returned cards' order is chosen in the form (a list of the orders, or dragging, or the arrow keys). Play
// sends the move.
import { announce, api, el, hideProblem, labelled, showProblem, t } from "./common.js";
import { cardFace } from "./cards.js";

const $ = (id) => document.getElementById(id);
const TARGETING = new Set(["guard", "priest", "baron", "king", "prince"]);

let ctx = null; // the page's state (seat.js): game, ruleset, token, current, refresh
let legal = [];
let movesVersion = -1;
let picked; // the card of the hand chosen to play (undefined: none yet; nothing is chosen for the player)
let kept; // the card of the hand chosen to keep after the Chancellor (undefined: none yet)
let pickedAt = -1; // which of the hand's cards it is (a hand may hold two of a kind: one is marked)
let cardChanged = () => {}; // what follows a new card chosen: its targets, its guesses

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

/** A pointer's click that comes too soon after the controls were drawn (it was meant for what was there before). */
function tooSoon(event) {
  return event.detail > 0 && performance.now() - drawnAt < SETTLE_MS;
}

let focusWanted = null; // what takes the keyboard's focus at the next frame (a function: found then)

/** Move the keyboard's focus once this drawing is done, at the next frame: focusing in the middle of a drawing makes
 * the browser lay out the page there and then, and again for what is drawn after it. The last wish wins. */
export function focusSoon(find) {
  const first = focusWanted === null;
  focusWanted = find;
  if (first) {
    window.requestAnimationFrame(() => {
      const wanted = focusWanted;
      focusWanted = null;
      wanted()?.focus();
    });
  }
}

function chosen(name) {
  if (name === "card") return picked;
  if (name === "keep") return kept;
  return $("moves").querySelector(`input[name="${name}"]:checked`)?.value;
}

function choose(name, value) {
  const input = $("moves").querySelector(`input[name="${name}"][value="${CSS.escape(String(value))}"]`);
  if (!input || input.checked) return Boolean(input);
  input.checked = true;
  input.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
}

function unique(values) {
  return [...new Set(values.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v));
}

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

function nameOf(seat) {
  const s = ctx.current?.view.seats[seat];
  return s ? (s.name || t("seat.open")) : `#${seat}`;
}

// -- the pointer's path: the hand, the seats, the grid --------------------------------------------------------

/** Mark the hand's chosen card and the seats the chosen card may (or may not) target; called after every drawing
 * of the hand and the table, which the stream redraws while the player chooses. */
export function decorate() {
  const card = chosen("card");
  const pointed = card ?? chosen("keep");
  let marked = false;
  [...$("hand").querySelectorAll("[data-card]")].forEach((face, i) => {
    const button = face.tagName === "BUTTON";
    const on = face.dataset.card === pointed && !face.classList.contains("unplayable")
      && (button ? i === pickedAt : !marked);
    marked ||= on;
    face.classList.toggle("chosen", on);
    if (button) face.setAttribute("aria-pressed", String(on));
  });
  const view = ctx.current?.view;
  const targets = unique(legal.filter((m) => m.type === "play" && m.card === card && m.target !== undefined).map((m) => m.target));
  const aiming = card !== undefined && TARGETING.has(card);
  const target = chosen("target");
  for (const li of $("players").querySelectorAll("li[data-seat]")) {
    const seat = Number(li.dataset.seat);
    const s = view?.seats[seat];
    li.classList.toggle("can-target", aiming && targets.includes(seat));
    li.classList.toggle("chosen", aiming && target === String(seat));
    li.classList.toggle("cannot-target", aiming && !targets.includes(seat));
    li.querySelector(".aim")?.remove();
    if (!aiming || !s) continue;
    let why = t("seat.can_target");
    if (!targets.includes(seat)) {
      const reason = !s.in_round ? t("seat.out") : s.protected ? t("seat.protected")
        : seat === view.seat ? t("seat.not_yourself") : "";
      why = reason ? `${labelled("seat.cannot_target")}${reason}` : t("seat.cannot_target");
    }
    // a seat that cannot be chosen says why in a short mark (✗, its reason in full for a screen reader and in the
    // tooltip): its reason is mostly a tag of its own already (protected, out), and a long pill would wrap tall
    const yes = targets.includes(seat);
    li.querySelector(".tags")?.append(el("span", { class: `tag aim ${yes ? "yes" : "no"}`, title: why,
      "data-short": yes ? t("seat.can_target.short") : "✗" }, el("span", { class: "why", text: why })));
  }
}

/** The first card of the hand that can be played now: where the keyboard starts a move. */
function firstCard() {
  return $("hand").querySelector('button[data-card]:not([aria-disabled="true"])');
}

function pointAtHand(event) {
  const face = event.target.closest("[data-card]");
  if (!face || tooSoon(event)) return;
  if (face.classList.contains("unplayable")) { // said, not played: the rule that forbids it
    announce(face.querySelector(".reason")?.textContent ?? "");
    return;
  }
  const keeping = keepStep();
  if (!legal.some((m) => (keeping ? m.keep : m.type === "play" && m.card) === face.dataset.card)) return;
  const same = (keeping ? kept : picked) === face.dataset.card;
  if (keeping) kept = face.dataset.card; // the Chancellor's: the card kept
  else picked = face.dataset.card;
  pickedAt = [...$("hand").querySelectorAll("[data-card]")].indexOf(face);
  if (same) { decorate(); return; } // the other of two alike: the same move
  cardChanged();
  if (keeping) return;
  const first = $("moves").querySelector('input[name="target"]:not(:checked)');
  if (first && !chosen("target")) announce(t("seat.pick_card"));
}

/** After the Chancellor: the seat keeps one card of its hand and returns the others. */
function keepStep() {
  return legal.length > 0 && legal[0].type === "return";
}

function pointAtSeat(event) {
  const li = event.target.closest("li[data-seat]");
  if (!li || tooSoon(event) || !li.classList.contains("can-target")) return;
  choose("target", li.dataset.seat);
}

// -- the Chancellor's order, by dragging or with the arrow keys --------------------------------------------------

function orderList(cards) {
  const list = el("ol", { id: "order", class: "order", "aria-label": t("seat.bottom") });
  const commit = (focus) => {
    const order = [...list.children].map((li) => li.dataset.order);
    choose("bottom", order.join(","));
    if (focus !== undefined) list.children[focus]?.focus();
  };
  const draw = (order) => {
    list.replaceChildren(...order.map((c, i) => {
      const li = el("li", { tabindex: "0", draggable: "true", "data-order": c, "aria-label": `${i + 1}. ${ctx.cardName(c)}` },
        cardFace(ctx.ruleset, c, { tag: "span", mark: "data-shown" }));
      li.addEventListener("keydown", (event) => {
        const at = [...list.children].indexOf(li);
        const to = event.key === "ArrowUp" ? at - 1 : event.key === "ArrowDown" ? at + 1 : -1;
        if (to < 0 || to >= list.children.length || !["ArrowUp", "ArrowDown"].includes(event.key)) return;
        event.preventDefault();
        const now = [...list.children].map((x) => x.dataset.order);
        [now[at], now[to]] = [now[to], now[at]];
        draw(now);
        commit(to);
        announce(`${ctx.cardName(now[to])}: ${t("seat.moved_to")} ${to + 1}`);
      });
      li.addEventListener("dragstart", (event) => { event.dataTransfer.setData("text/plain", String(i)); });
      li.addEventListener("dragover", (event) => event.preventDefault());
      li.addEventListener("drop", (event) => {
        event.preventDefault();
        const from = Number(event.dataTransfer.getData("text/plain"));
        const now = [...list.children].map((x) => x.dataset.order);
        const [moved] = now.splice(from, 1);
        now.splice([...list.children].indexOf(li), 0, moved);
        draw(now);
        commit();
      });
      return li;
    }));
  };
  draw(cards);
  list.redraw = draw;
  return list;
}

// -- the form ---------------------------------------------------------------------------------------------------

function returnControls(form) {
  const bottomPart = el("div", { id: "bottom-part" });
  let list = null;
  const showBottoms = () => {
    const keep = chosen("keep");
    const orders = legal.filter((m) => m.keep === keep).map((m) => m.bottom);
    bottomPart.replaceChildren();
    decorate();
    if (!keep) return;
    const syncList = () => { const o = chosen("bottom"); if (o && list) list.redraw(o.split(",")); };
    bottomPart.append(radios("bottom", t("seat.bottom"),
      orders.map((o) => [o.join(","), o.map((c) => ctx.cardName(c)).join(" → ")]), syncList, { single: true }));
    if (orders[0].length > 1) {
      list = orderList(orders[0]);
      const use = el("button", { type: "button", class: "secondary", id: "order-use", text: t("seat.order.use") });
      use.addEventListener("click", () => choose("bottom", [...list.children].map((li) => li.dataset.order).join(",")));
      bottomPart.append(el("div", { class: "ordering" }, el("p", { class: "hint", text: t("seat.order") }), list, use));
    }
  };
  cardChanged = showBottoms; // the card kept is chosen in the hand (table.js draws its buttons)
  form.append(bottomPart);
  showBottoms();
}

function playControls(form) {
  const targetPart = el("div", { id: "target-part" });
  const guessPart = el("div", { id: "guess-part" });
  const showGuesses = () => {
    const c = chosen("card");
    const target = chosen("target");
    const guesses = unique(legal.filter((m) => m.card === c && String(m.target) === target && m.guess).map((m) => m.guess));
    guessPart.replaceChildren();
    decorate();
    if (!guesses.length) return;
    const select = el("select", { id: "guess", name: "guess" }, el("option", { value: "", text: "—" }),
      ...guesses.map((g) => el("option", { value: g, text: `${ctx.cardName(g)} (${ctx.cardValue(g)})` })));
    const grid = el("div", { class: "guess-grid", role: "group", "aria-label": t("seat.guess_grid") },
      ...guesses.map((g) => {
        const button = el("button", { type: "button", tabindex: "-1", "data-guess": g, "aria-pressed": "false" },
          cardFace(ctx.ruleset, g, { tag: "span", mark: "data-named" }));
        button.addEventListener("click", () => { select.value = g; select.dispatchEvent(new Event("change")); });
        return button;
      }));
    select.addEventListener("change", () => {
      for (const b of grid.children) b.setAttribute("aria-pressed", String(b.dataset.guess === select.value));
    });
    guessPart.append(el("label", { for: "guess", text: t("seat.guess") }), select, grid);
  };
  const showTargets = () => {
    const c = chosen("card");
    const targets = unique(legal.filter((m) => m.card === c && m.target !== undefined).map((m) => m.target));
    targetPart.replaceChildren();
    if (targets.length) {
      targetPart.append(radios("target", t("seat.target"), targets.map((s) => [s, nameOf(s)]), showGuesses, { single: true }));
    }
    showGuesses();
  };
  cardChanged = showTargets; // the card itself is chosen in the hand (table.js draws its buttons)
  form.append(targetPart, guessPart);
  showTargets();
}

export function renderMoves(moves) {
  const form = $("moves");
  legal = moves;
  $("moves-panel").hidden = moves.length === 0;
  document.body.dataset.choosing = String(moves.length > 0 && moves[0].type === "play");
  if (ctx.current.version === movesVersion) { decorate(); return; }
  movesVersion = ctx.current.version;
  picked = undefined;
  kept = undefined;
  pickedAt = -1;
  cardChanged = () => {};
  // A keyboard player keeps their place: from the move they sent to the status line while the others play,
  // and back to the first control of their next move (for a card to play: the first card of the hand).
  const active = document.activeElement;
  const hadFocus = form.contains(active) || $("hand").contains(active) || active === $("status")
    || focusWanted !== null; // the hand redrawn a moment ago (table.js) sends the focus to the status line
  form.replaceChildren();
  const hint = t(moves[0]?.type === "return" ? "seat.pick_keep" : "seat.pick_card");
  if ($("moves-hint").textContent !== hint) $("moves-hint").textContent = hint;
  if (moves.length === 0) {
    form.dataset.armed = "yes";
    decorate();
    if (hadFocus) focusSoon(() => $("status"));
    return;
  }
  drawn();
  if (moves[0].type === "return") returnControls(form);
  else playControls(form);
  form.append(el("p", {}, el("button", { type: "submit", id: "play", text: t("seat.play") })));
  decorate();
  if (hadFocus) focusSoon(() => firstCard() ?? form.querySelector("input, select, button"));
}

async function submit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  let body;
  if (keepStep()) {
    body = { type: "return", keep: chosen("keep"), bottom: (chosen("bottom") || "").split(",").filter(Boolean) };
  } else {
    body = { type: "play", card: chosen("card") };
    const target = chosen("target");
    if (target !== undefined) body.target = Number(target);
    const guess = form.querySelector("#guess")?.value;
    if (guess) body.guess = guess;
  }
  const missing = !body.card && !body.keep ? "card"
    : form.querySelector('input[name="target"]') && body.target === undefined ? "target"
      : form.querySelector("#guess") && !body.guess ? "guess"
        : form.querySelector('input[name="bottom"]') && !chosen("bottom") ? "bottom" : null;
  if (missing) { // nothing is sent until every part of the move is the player's own choice
    const what = missing === "card" && body.type === "return" ? "keep" : missing;
    announce(`${t("seat.choose")} ${t(`seat.${what}`)}`);
    (what === "card" || what === "keep" ? firstCard()
      : form.querySelector(what === "guess" ? "#guess" : `input[name="${what}"]`))?.focus();
    return;
  }
  if (form.dataset.busy) return; // one move at a time (not `disabled`: that would take the keyboard's focus away)
  form.dataset.busy = "yes";
  const answer = await api("POST", `/games/${encodeURIComponent(ctx.game)}/moves`, { body, token: ctx.token });
  delete form.dataset.busy;
  if (!answer.ok) {
    showProblem($("problem"), answer.body);
    return;
  }
  hideProblem($("problem"));
  ctx.refresh();
}

/** Wire the form, the hand and the table to the page's state (once). */
export function setUpMoves(state) {
  ctx = state;
  const form = $("moves");
  form.addEventListener("click", (event) => {
    if (tooSoon(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  form.addEventListener("submit", submit);
  $("hand").addEventListener("click", pointAtHand);
  $("players").addEventListener("click", pointAtSeat);
}
