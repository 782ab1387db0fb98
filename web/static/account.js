// An account's page: what `GET /accounts/{id}` says of it (name, kind, ratings) and what
// `GET /accounts/{id}/history` adds — its rating after each rated game, drawn here as an SVG chart, its win rate and
// its head-to-head — and `GET /accounts/{id}/games`, its games newest first, each from its point of view. Every
// figure, order and result is the API's, shown as it came.
import { api, count, data, el, labelled, showProblem, t } from "./common.js";
import { figure, withInterval } from "./ladder.js";
import "./account_challenge.js"; // the challenge form and the games it plays now (issue 35)

const SVG = "http://www.w3.org/2000/svg";
const Z95 = 1.96;
const id = data.account_id;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

function ladderName(ruleset, players) {
  return `${data.rulesets[ruleset]?.title ?? ruleset} — ${t("account.ladders")} ${players}`;
}

/** One ladder's rating over time: a point per rated game (its mu), the band of its 95% interval around them. */
function chart(ladder) {
  const [width, height, left, right, top, bottom] = [600, 220, 44, 12, 10, 26];
  const points = ladder.points;
  const lows = points.map((p) => p.mu - Z95 * p.sigma);
  const highs = points.map((p) => p.mu + Z95 * p.sigma);
  let [low, high] = [Math.min(...lows), Math.max(...highs)];
  if (high - low < 1) [low, high] = [low - 0.5, high + 0.5];
  const x = (i) => left + (points.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (points.length - 1));
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const label = `${ladderName(ladder.ruleset, ladder.players)}: ${t("account.chart.label")}`;
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label,
    "data-ruleset": ladder.ruleset, "data-players": ladder.players });
  drawing.append(svg("title", {}, label));
  const band = [...points.map((p, i) => `${x(i)},${y(highs[i])}`), ...points.map((p, i) => `${x(i)},${y(lows[i])}`).reverse()];
  drawing.append(svg("polygon", { class: "band", points: band.join(" ") }));
  drawing.append(svg("line", { class: "axis", x1: left, x2: left, y1: top, y2: height - bottom }));
  drawing.append(svg("line", { class: "axis", x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }));
  for (const v of [high, (high + low) / 2, low]) {
    drawing.append(svg("text", { x: left - 4, y: y(v) + 4, "text-anchor": "end" }, figure(v)));
  }
  drawing.append(svg("text", { x: width - right, y: height - 6, "text-anchor": "end" },
    count(points.length, "account.rated_game", "account.rated_games")));
  drawing.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" ") }));
  points.forEach((p, i) => {
    drawing.append(svg("line", { class: "whisker", x1: x(i), x2: x(i), y1: y(highs[i]), y2: y(lows[i]) }));
    const dot = svg("circle", { class: "point", cx: x(i), cy: y(p.mu), r: 4, "data-game": p.game_id,
      "data-mu": String(p.mu), "data-sigma": String(p.sigma) });
    dot.append(svg("title", {}, `${t("account.chart.game")} ${i + 1}: ${withInterval(p.mu, p.sigma)}`));
    drawing.append(dot);
  });
  return el("figure", {}, el("figcaption", { text: ladderName(ladder.ruleset, ladder.players) }), drawing);
}

function cells(...values) {
  return values.map((v, i) => el("td", { class: i ? "num" : undefined }, v));
}

function emptyRow(table, columns, text) {
  document.querySelector(`#${table} tbody`).append(el("tr", {}, el("td", { colspan: String(columns), text })));
}

const when = new Intl.DateTimeFormat(data.lang === "fr" ? "fr-FR" : "en-GB", { dateStyle: "medium", timeStyle: "short" });

/** "+2.6", "−1.3" (a true minus sign), "±0.0": a rating's change, in the page's language. */
function signed(x) {
  const shown = figure(Math.abs(x));
  return shown === figure(0) ? `±${shown}` : `${x > 0 ? "+" : "\u2212"}${shown}`;
}

/** One game of the account, as `GET /accounts/{id}/games` tells it from the account's point of view. */
function gameRow(g) {
  const made = new Date(g.created);
  const date = when.format(made);
  const opponents = el("td", { class: "opponents" });
  g.opponents.forEach((o, i) => {
    if (i) opponents.append(", ");
    opponents.append(o.account_id ? el("a", { href: `/accounts/${encodeURIComponent(o.account_id)}`, text: o.name }) : o.name);
  });
  if (!g.opponents.length) opponents.append("—");
  const rated = el("td", { class: "rated" }, t(g.rated ? "account.rated" : "account.unrated"));
  if (g.rating) {
    const { before, after } = g.rating;
    rated.replaceChildren(labelled("account.rated"),
      el("span", { class: "change", text: `${figure(before.mu)} → ${figure(after.mu)} (${signed(after.mu - before.mu)})` }));
    rated.dataset.before = String(before.mu);
    rated.dataset.after = String(after.mu);
  }
  const title = data.rulesets[g.ruleset]?.title ?? g.ruleset;
  return el("tr", { "data-game": g.game_id, "data-status": g.status },
    el("td", {}, el("time", { datetime: made.toISOString(), text: date })),
    el("td", {}, `${title} — ${count(g.players, "account.player", "account.players")}`),
    opponents,
    el("td", { class: "result", text: t(`account.status.${g.status}`) }),
    rated,
    el("td", {}, el("a", { class: "replay", href: `/replay/${encodeURIComponent(g.game_id)}`, text: t("nav.replay"),
      "aria-label": t("account.replay.of").replace("{date}", date) })));
}

async function show() {
  const path = `/accounts/${encodeURIComponent(id)}`;
  const answers = await Promise.all([api("GET", path), api("GET", `${path}/history`), api("GET", `${path}/games`)]);
  const refused = answers.find((a) => !a.ok);
  if (refused) {
    showProblem(document.getElementById("problem"), refused.body);
    return;
  }
  const [account, history, played] = answers;
  const a = account.body;
  const h = history.body;
  document.getElementById("name").textContent = a.name;
  document.title = `${a.name} — ${t("site")}`;
  const about = document.getElementById("about");
  about.textContent = `${labelled("ladder.kind")}${t(`kind.${a.kind}`)}`;
  if (!a.active) about.append(` — ${t("account.revoked")}`);

  const ratings = document.querySelector("#ratings tbody");
  ratings.replaceChildren(...a.ratings.map((r) => el("tr", { "data-mu": String(r.mu) },
    ...cells(ladderName(r.ruleset, r.players), String(r.rank), withInterval(r.mu, r.sigma), String(r.games)))));
  if (!a.ratings.length) emptyRow("ratings", 4, t("account.no_rating"));

  const record = document.getElementById("record");
  record.textContent = h.games
    ? `${labelled("account.record")}${Math.round(100 * h.win_rate)}${data.lang === "fr" ? "\u202f%" : "%"} — ${count(h.wins, "account.won_one", "account.won")} ${t("account.of")} ${count(h.games, "account.rated_game", "account.rated_games")}`
    : t("account.no_rating");
  record.dataset.wins = String(h.wins);
  record.dataset.games = String(h.games);

  const charts = document.getElementById("charts");
  charts.replaceChildren(...h.ladders.map(chart));
  if (!h.ladders.length) charts.append(el("p", { class: "hint", text: t("account.no_rating") }));

  document.querySelector("#h2h tbody").replaceChildren(...h.opponents.map((o) => el("tr", { "data-account": o.account_id },
    ...cells(el("a", { href: `/accounts/${encodeURIComponent(o.account_id)}`, text: `${o.name} (${t(`kind.${o.kind}`)})` }),
      String(o.games), String(o.wins), String(o.losses)))));
  if (!h.opponents.length) emptyRow("h2h", 4, t("account.none"));

  const list = played.body;
  document.querySelector("#games tbody").replaceChildren(...list.games.map(gameRow));
  if (!list.games.length) emptyRow("games", 6, t("account.none"));
  const more = document.getElementById("games-more");
  more.hidden = list.total <= list.games.length;
  more.textContent = t("account.games.more").replace("{shown}", String(list.games.length)).replace("{total}", String(list.total));
  document.body.dataset.loaded = "yes";
}

show();
