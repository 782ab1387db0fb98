// The statistics page: a simulation run by the referee (POST /simulations, then polled for its progress) or a
// simulation's file, drawn as small inline SVG charts from the server's figures; each chart has its table of
// numbers beside it, for screen readers and for anyone who wants the digits.
import { announce, api, cardName, data, el, hideProblem, showProblem, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const percent = new Intl.NumberFormat(data.lang, { style: "percent", maximumFractionDigits: 1 });
const decimal = new Intl.NumberFormat(data.lang, { maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat(data.lang);
const colon = data.lang === "fr" ? "\u202f: " : ": "; // French puts a narrow no-break space before the colon
const ninetyFive = percent.format(0.95);

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

function botName(bot) {
  return data.words[`stats.bot.${bot}`] ?? bot;
}

// -- the form ----------------------------------------------------------------------------------------------------

function fillBots() {
  const rs = data.rulesets[$("ruleset").value];
  const players = $("players");
  players.min = String(rs.players[0]);
  players.max = String(rs.players[1]);
  const n = Math.max(rs.players[0], Math.min(rs.players[1], Number(players.value) || rs.players[0]));
  const before = [...$("bots").querySelectorAll("select")].map((s) => s.value);
  $("bots").replaceChildren(...Array.from({ length: n }, (_, seat) => {
    const id = `bot-${seat}`;
    const select = el("select", { id, name: id },
      ...data.bots.map((b) => el("option", { value: b, text: botName(b), selected: b === (before[seat] ?? (seat === 0 ? "heuristic" : "random")) })));
    return el("li", {}, el("label", { for: id, text: `${t("stats.bot")} ${seat + 1}` }), select);
  }));
}

async function run(event) {
  event.preventDefault();
  hideProblem($("problem"));
  const body = {
    ruleset: $("ruleset").value,
    players: Number($("players").value),
    games: Number($("games").value),
    seed: Number($("seed").value),
    bots: [...$("bots").querySelectorAll("select")].map((s) => s.value),
  };
  const started = await api("POST", "/simulations", { body });
  if (!started.ok) {
    showProblem($("problem"), started.body);
    return;
  }
  $("start").disabled = true;
  const progress = $("progress");
  progress.max = body.games;
  let state = started.body;
  while (state.status === "running") {
    progress.value = state.done;
    $("progress-text").textContent = `${whole.format(state.done)} / ${whole.format(state.games)}`;
    await new Promise((resolve) => setTimeout(resolve, 250));
    const polled = await api("GET", started.body.url);
    if (!polled.ok) {
      showProblem($("problem"), polled.body);
      $("start").disabled = false;
      return;
    }
    state = polled.body;
  }
  $("start").disabled = false;
  progress.value = state.done;
  $("progress-text").textContent = `${whole.format(state.done)} / ${whole.format(state.games)}`;
  if (state.status === "failed") showProblem($("problem"), { detail: state.error });
  else draw(state.statistics, state.rounds_per_game);
}

async function openFile() {
  const file = $("file").files[0];
  if (!file) return;
  hideProblem($("problem"));
  const text = await file.text();
  let doc = null;
  try {
    doc = JSON.parse(text);
  } catch {
    // a JSONL log: the server counts it
  }
  if (doc && doc.win_rate) {
    draw(doc, null);
    return;
  }
  const reply = await fetch("/simulations/tally", {
    method: "POST", body: text, headers: { "Content-Type": "application/x-ndjson", "Accept-Language": data.lang },
  });
  const answer = await reply.json();
  if (!reply.ok) showProblem($("problem"), answer);
  else draw(answer.statistics, answer.rounds_per_game);
}

// -- the charts --------------------------------------------------------------------------------------------------

/** Horizontal bars with their 95% whiskers: rows of {label, value, low, high}, scaled to `top`. */
function barChart(rows, top, format) {
  const labelWidth = 150;
  const width = 420;
  const plot = width - labelWidth - 60;
  const row = 26;
  const height = rows.length * row + 24;
  const x = (v) => labelWidth + (top > 0 ? (v / top) * plot : 0);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" });
  chart.append(svg("line", { class: "axis", x1: labelWidth, x2: labelWidth, y1: 0, y2: rows.length * row }));
  rows.forEach((r, i) => {
    const y = i * row + 4;
    chart.append(svg("text", { x: labelWidth - 6, y: y + 14, "text-anchor": "end" }, r.label));
    chart.append(svg("rect", {
      class: "bar", x: labelWidth, y, width: Math.max(0, x(r.value) - labelWidth), height: row - 8,
      "data-label": r.label, "data-value": r.value,
    }));
    if (r.low !== null && r.low !== undefined && r.high !== null && r.high !== undefined) {
      const mid = y + (row - 8) / 2;
      chart.append(svg("line", { class: "whisker", x1: x(r.low), x2: x(r.high), y1: mid, y2: mid,
        "data-low": r.low, "data-high": r.high }));
      for (const end of [r.low, r.high]) chart.append(svg("line", { class: "whisker", x1: x(end), x2: x(end), y1: mid - 5, y2: mid + 5 }));
    }
    chart.append(svg("text", { x: x(Math.max(r.value, r.high ?? 0)) + 4, y: y + 14 }, format(r.value)));
  });
  const ticks = svg("g");
  for (const f of [0, 0.5, 1]) ticks.append(svg("text", { x: x(top * f), y: height - 4, "text-anchor": "middle" }, format(top * f)));
  chart.append(ticks);
  return chart;
}

function table(head, rows) {
  return el("table", {},
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c, i) => el(i ? "td" : "th", { scope: i ? undefined : "row", text: c }))))));
}

function figure(id, rows, top, format) {
  const box = $(id);
  const caption = box.querySelector("figcaption");
  const interval = (r) => (r.low === null || r.low === undefined ? "—" : `${format(r.low)} – ${format(r.high)}`);
  box.replaceChildren(caption, barChart(rows, top, format),
    table(["", t("stats.mean"), ninetyFive], rows.map((r) => [r.label, format(r.value), interval(r)])));
}

function draw(stats, rounds) {
  const rs = stats.ruleset;
  $("summary").textContent = `${whole.format(stats.games)} ${t("stats.summary")} · ${data.rulesets[rs]?.title ?? rs} · `
    + `${stats.players} ${t("stats.players").toLowerCase()} · ${t("stats.seed").toLowerCase()} ${stats.seed}`;
  const rate = (r, label) => ({ label, value: r.rate, low: r.low, high: r.high });
  figure("chart-seat", stats.win_rate.by_seat.map((r) => rate(r, `${t("stats.seat")} ${r.seat} (${botName(r.bot)})`)), 1, percent.format);
  figure("chart-bot", stats.win_rate.by_bot.map((r) => rate(r, botName(r.bot))), 1, percent.format);
  const mean = (r, label) => ({ label, value: r.per_game, low: r.low, high: r.high });
  const reason = (why) => (why === "spy" ? cardName(rs, "spy") : t(`stats.reason.${why}`));
  const favors = stats.favors.map((r) => mean(r, reason(r.reason)));
  figure("chart-favors", favors, Math.max(...favors.map((r) => r.high ?? r.value), 0.001), decimal.format);
  const eliminations = stats.eliminations.map((r) => mean(r, cardName(rs, r.card)));
  figure("chart-eliminations", eliminations, Math.max(...eliminations.map((r) => r.high ?? r.value), 0.001), decimal.format);
  const box = $("chart-rounds");
  const caption = box.querySelector("figcaption");
  const perGame = stats.per_game.rounds;
  const meanLine = el("p", { class: "hint", text: `${t("stats.mean")}${colon}${decimal.format(perGame.per_game)}`
    + (perGame.low === null ? "" : ` (${ninetyFive}${colon}${decimal.format(perGame.low)} – ${decimal.format(perGame.high)})`) });
  if (rounds && rounds.length) {
    const rows = rounds.map((r) => ({ label: `${r.rounds}`, value: r.games }));
    box.replaceChildren(caption, barChart(rows, Math.max(...rows.map((r) => r.value)), whole.format), meanLine,
      table([t("seat.round"), t("stats.games")], rows.map((r) => [r.label, whole.format(r.value)])));
  } else {
    box.replaceChildren(caption, meanLine);
  }
  $("results").hidden = false;
  announce(`${t("stats.results")}${colon}${$("summary").textContent}`);
}

$("ruleset").addEventListener("change", fillBots);
$("players").addEventListener("change", fillBots);
$("simulate").addEventListener("submit", run);
$("file").addEventListener("change", openFile);
fillBots();
