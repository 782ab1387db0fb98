// The end of a round and of the game, as panels: the hands shown, who won and why, the favors gained, the tie-break
// when there was one; at the game's end the winners, every seat's favors, the rematch, the replay and the log.
// Read from the game's events as this viewer may see them (GET /games/{id}/events): nothing is computed but sums.
import { api, data, el, labelled, t } from "./common.js";
import { cardFace } from "./cards.js";
import { ratingChange } from "./rated_end.js";

const $ = (id) => document.getElementById(id);

let events = []; // the events read so far, in order
let firstRound = null; // the round the page opened in: only rounds that end while it is open get a panel
let shownRound = null; // the round whose panel was drawn (or closed)

async function readEvents(ctx) {
  const answer = await api("GET", `/games/${encodeURIComponent(ctx.game)}/events?after=${events.length}`, { token: ctx.token });
  if (answer.ok) events.push(...answer.body.events);
}

function names(ctx, seats) {
  return seats.map((s) => ctx.current.view.seats[s]?.name || `#${s + 1}`).join(", ");
}

/** The events of round `n`, from its deal to its end (with the favors given after it). */
function roundOf(n) {
  const start = events.findIndex((e) => e.type === "round_started" && e.round === n);
  const end = events.findIndex((e) => e.type === "round_ended" && e.round === n);
  if (start < 0 || end < 0) return null;
  let after = end + 1;
  while (after < events.length && events[after].type === "favor_gained") after += 1;
  return { played: events.slice(start, end), ended: events[end], favors: events.slice(end + 1, after) };
}

function roundPanel(ctx, n) {
  const round = roundOf(n);
  if (!round) return null;
  const { ended, played, favors } = round;
  const value = (c) => ctx.cardValue(c);
  const body = [el("h2", { id: "round-end-h", text: t("seat.round_over").replace("{n}", String(n)) })];
  const why = t(`seat.why.${ended.reason}`);
  body.push(el("p", { class: "verdict", text: ended.winners.length
    ? `${names(ctx, ended.winners)} ${t(ended.winners.length > 1 ? "seat.won_round.many" : "seat.won_round")} (${why}).`
    : t("seat.nobody_won") }));
  const hands = (ended.hands || []).map((c, s) => [s, c]).filter(([, c]) => c);
  if (hands.length) {
    const best = Math.max(...hands.map(([, c]) => value(c)));
    const tied = hands.filter(([, c]) => value(c) === best).map(([s]) => s);
    const sums = {};
    for (const e of played) {
      if (e.type === "card_played" || e.type === "hand_discarded") sums[e.player] = (sums[e.player] || 0) + value(e.card);
    }
    body.push(el("h3", { text: t("seat.revealed") }), el("ul", { class: "revealed" }, ...hands.map(([s, c]) =>
      el("li", { class: ended.winners.includes(s) ? "won" : "" }, el("span", { class: "name", text: names(ctx, [s]) }), " ",
        cardFace(ctx.ruleset, c, { tag: "span", mark: "data-shown" }),
        tied.length > 1 && tied.includes(s) ? ` — ${t("seat.total")} ${sums[s] || 0}` : ""))));
    if (tied.length > 1) {
      const sumRule = ctx.ruleset === "2012";
      body.push(el("p", { class: "tie" }, labelled("seat.tie"), sumRule ? t("seat.tie.sum") : t("seat.tie.all")));
    }
  }
  if (ended.set_aside) {
    body.push(el("p", {}, labelled("seat.set_aside"), cardFace(ctx.ruleset, ended.set_aside, { tag: "span", mark: "data-shown" })));
  }
  if (favors.length) {
    body.push(el("p", {}, labelled("seat.favor_gained"),
      favors.map((f) => `${names(ctx, [f.player])} (${t(`seat.favor.${f.reason}`)})`).join(", ")));
  }
  return body;
}

function gamePanel(ctx) {
  const view = ctx.current.view;
  const body = [el("h2", { id: "game-end-h", text: t("seat.game_over") })];
  body.push(el("p", { class: "verdict", text: view.aborted ? t("seat.aborted")
    : `${labelled("seat.winners")}${names(ctx, view.winners)}` }));
  body.push(el("ul", { class: "final" }, ...view.seats.map((s) =>
    el("li", { class: view.winners.includes(s.seat) ? "won" : "" }, `${s.name || t("seat.open")} — ${labelled("seat.favors")}${s.favors}`))));
  const id = encodeURIComponent(ctx.game);
  body.push(el("p", { class: "links" },
    el("a", { href: `/replay/${id}`, id: "replay-link", text: t("seat.replay") }), " · ",
    el("a", { href: `/games/${id}/log`, id: "log-link", download: `${ctx.game}.jsonl`, text: t("seat.download") })));
  return body;
}

/** Draw the panels: a round's when it ends while the page is open (until closed or the next one), the game's at
 * its end. Events are read only when the round changes or the game ends. */
export async function renderEnds(ctx) {
  const view = ctx.current.view;
  if (firstRound === null) firstRound = view.round;
  const ended = ctx.current.over ? view.round : view.round - 1;
  const gameBox = $("game-end");
  if (ctx.current.over && gameBox.hidden) {
    gameBox.replaceChildren(...gamePanel(ctx));
    gameBox.append($("rematch"));
    gameBox.hidden = false;
    ratingChange(ctx, gameBox, data.lang); // a rated game: each seat's rating before and after it
  }
  $("rematch").hidden = !ctx.current.over || view.aborted || view.seat === null;
  if (ended < 1 || ended === shownRound || (ended < firstRound && !ctx.current.over) || view.aborted) return;
  shownRound = ended;
  await readEvents(ctx);
  const panel = roundPanel(ctx, ended);
  const box = $("round-end");
  if (!panel) { box.hidden = true; return; }
  const close = el("button", { type: "button", class: "secondary close", id: "round-end-close", text: t("seat.close") });
  close.addEventListener("click", () => { box.hidden = true; });
  box.replaceChildren(...panel, close);
  box.hidden = false;
}
