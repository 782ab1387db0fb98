// The end of a rated game (issue 35): each seat's rating before and after it, on the ladder of its ruleset and table
// size. Who sat where is the game's own log (`game_started.accounts`, `seat_joined.account`); the ratings are
// `GET /accounts/{id}/history`, the ladder's own fold (docs/accounts.md), so the rating shown after the game is the
// one `GET /ladder` gives. Before an account's first game on a ladder its rating is OpenSkill's default, 25.
import { api, el, t } from "./common.js";

const DEFAULT_MU = 25;

function figure(x, lang) {
  return x.toLocaleString(lang === "fr" ? "fr-FR" : "en-GB", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function signed(x, lang) {
  const shown = figure(Math.abs(x), lang);
  if (shown === figure(0, lang)) return `±${shown}`;
  return `${x > 0 ? "+" : "\u2212"}${shown}`;
}

/** The account that sat at each seat, or null, as the log says. */
function accountsOf(events) {
  const start = events.find((e) => e.type === "game_started");
  if (!start?.rated) return null;
  const accounts = (start.accounts ?? []).map((a) => a?.account ?? null);
  for (const e of events) if (e.type === "seat_joined" && e.account) accounts[e.player] = e.account.account;
  return accounts;
}

/** The rating an account had before `game` and after it on one ladder, from its history; null until folded. */
async function change(account, game, ruleset, players) {
  const answer = await api("GET", `/accounts/${encodeURIComponent(account)}/history`);
  if (!answer.ok) return null;
  const ladder = answer.body.ladders.find((l) => l.ruleset === ruleset && l.players === players);
  const at = ladder ? ladder.points.findIndex((p) => p.game_id === game) : -1;
  if (at < 0) return null;
  return { before: at ? ladder.points[at - 1].mu : DEFAULT_MU, after: ladder.points[at].mu };
}

/** Add the ratings' panel to the game's end `box` once the game is over, if it was rated. */
export async function ratingChange(ctx, box, lang) {
  const view = ctx.current.view;
  if (view.aborted) return;
  const read = await api("GET", `/games/${encodeURIComponent(ctx.game)}/events?after=0`, { token: ctx.token });
  const accounts = read.ok ? accountsOf(read.body.events) : null;
  if (!accounts) return;
  const list = el("ul", { class: "final ratings" });
  const section = el("section", { id: "rating-change", class: "rating-change", "aria-labelledby": "rating-change-h" },
    el("h3", { id: "rating-change-h", text: t("rated.title") }), list,
    el("p", { class: "hint", text: t("rated.rematch") }));
  list.append(el("li", { class: "reading", text: t("rated.reading") }));
  box.append(section);
  const players = view.seats.length;
  const found = new Array(accounts.length).fill(null);
  for (let attempt = 0; attempt < 20 && found.some((f, s) => f === null && accounts[s]); attempt += 1) {
    if (attempt) await new Promise((resolve) => { window.setTimeout(resolve, 500); }); // the ladder folds it
    await Promise.all(accounts.map(async (account, s) => {
      if (account && !found[s]) found[s] = await change(account, ctx.game, ctx.ruleset, players);
    }));
  }
  list.replaceChildren(...accounts.map((account, s) => {
    const moved = found[s];
    if (!account || !moved) return null;
    return el("li", { "data-account": account, "data-before": String(moved.before), "data-after": String(moved.after) },
      el("a", { href: `/accounts/${encodeURIComponent(account)}`, text: view.seats[s].name }),
      ` — ${t("rated.rating")} ${figure(moved.before, lang)} → ${figure(moved.after, lang)} (${signed(moved.after - moved.before, lang)})`);
  }).filter(Boolean));
  section.dataset.done = "yes";
}
