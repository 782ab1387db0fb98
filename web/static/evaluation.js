// The viewer's evaluation: the review of every decision of the game (POST /analyses, the engine's, as `loveletter
// analyse` gives it) drawn as a graph under the timeline — each player's chance of winning the game after the move
// they played, decision by decision — and, at each position, the best move there and what the played one cost.
// The page computes nothing: the figures are the server's; the graph is inline SVG drawn here.
import { announce, api, data, el, labelled, t } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const WIDTH = 600;
const HEIGHT = 140;
const PAD = { left: 34, right: 8, top: 8, bottom: 8 };
const BUDGET = 50; // rollouts a move: a quick review (the command line's default is 200)
const percent = new Intl.NumberFormat(data.lang === "fr" ? "fr-FR" : "en-GB", { style: "percent", maximumFractionDigits: 1, minimumFractionDigits: 1, roundingMode: "halfEven" });
const whole = new Intl.NumberFormat(data.lang === "fr" ? "fr-FR" : "en-GB", { style: "percent", roundingMode: "halfEven" });
const points = new Intl.NumberFormat(data.lang === "fr" ? "fr-FR" : "en-GB", { maximumFractionDigits: 1, minimumFractionDigits: 1, roundingMode: "halfEven" });

let review = null; // the finished analysis (`analysis` of GET /analyses/{id})
let running = false;
let count = 1; // positions of the game
let pick = () => {};

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

const x = (position) => PAD.left + (count > 1 ? (position - 1) / (count - 1) : 1) * (WIDTH - PAD.left - PAD.right);
const y = (chance) => PAD.top + (1 - chance) * (HEIGHT - PAD.top - PAD.bottom);

/** The played move's figures in a decision that was searched (none for a forced one, or a move not legal there). */
function playedMove(entry) {
  return entry.forced ? null : entry.moves.find((m) => m.action_code === entry.played.action_code) ?? null;
}

/** Hook the panel to the viewer: `source()` gives what to analyse ({log} or {game_id}), `onPick(position)` moves
 * the viewer there. */
export function setUp(source, onPick) {
  pick = onPick;
  $("eval-run").addEventListener("click", () => run(source()));
  $("eval-graph").addEventListener("click", (event) => {
    const box = $("eval-graph").getBoundingClientRect();
    const fraction = (event.clientX - box.left) / box.width;
    const position = Math.round(1 + ((fraction * WIDTH - PAD.left) / (WIDTH - PAD.left - PAD.right)) * (count - 1));
    pick(Math.max(1, Math.min(count, position)));
  });
}

/** Start the analysis (once at a time), follow its progress, then draw it. */
export async function run(body) {
  if (running || review) return;
  running = true;
  const status = $("eval-status");
  $("eval-run").disabled = true;
  $("eval-panel").dataset.state = "running";
  status.textContent = t("replay.eval.starting");
  const started = await api("POST", "/analyses", { body: { ...body, budget: BUDGET, lang: data.lang } });
  if (!started.ok) {
    fail(started.body.detail || started.body.title || String(started.status));
    return;
  }
  let job = started.body;
  while (job.status === "queued" || job.status === "running") {
    status.textContent = `${t("replay.eval.progress")} ${job.done} ${t("replay.of")} ${job.total}`;
    await new Promise((done) => window.setTimeout(done, 300));
    const reply = await api("GET", job.url);
    if (!reply.ok) {
      fail(reply.body.detail || reply.body.title || String(reply.status));
      return;
    }
    job = reply.body;
  }
  if (job.status !== "done") {
    fail(job.error ?? "");
    return;
  }
  review = job.analysis;
  running = false;
  $("eval-panel").dataset.state = "done";
  status.textContent = `${review.decisions.length} ${t("replay.eval.decisions")} · ${review.model}`;
  $("eval-figure").hidden = false;
  document.dispatchEvent(new Event("ll:evaluated"));
  announce(t("replay.eval.ready"));
}

function fail(message) {
  running = false;
  $("eval-run").disabled = false;
  $("eval-panel").dataset.state = "failed";
  $("eval-status").textContent = `${labelled("seat.refused")}${message}`;
}

/** Draw the graph with the viewer at `at` (of `total` positions), and say what was decided there. */
export function draw(at, total, players) {
  count = total;
  if (!review) return;
  const graph = $("eval-graph");
  graph.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const grid = svg("g", { class: "grid" });
  for (const chance of [0, 0.5, 1]) {
    grid.append(svg("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(chance), y2: y(chance) }),
      svg("text", { x: PAD.left - 4, y: y(chance) + 4, "text-anchor": "end" }, whole.format(chance)));
  }
  const lines = players.map((_, seat) => {
    const marks = review.decisions.filter((e) => playedMove(e) && players.indexOf(e.player) === seat)
      .map((e) => [e.at, playedMove(e).game, e]);
    const line = svg("polyline", { class: `seat seat-${seat}`, points: marks.map(([p, c]) => `${x(p)},${y(c)}`).join(" ") });
    const dots = marks.map(([p, c, e]) => svg("circle", {
      class: `dot seat-${seat}${e.verdict ? ` ${e.verdict}` : ""}`, cx: x(p), cy: y(c), r: e.verdict ? 4.5 : 2.5,
      "data-at": e.at, "data-game": c,
    }, svg("title", {}, `${e.when}: ${e.played.text} — ${percent.format(c)}`)));
    return svg("g", { "data-seat": seat }, line, ...dots);
  });
  const here = svg("line", { class: "here", x1: x(at), x2: x(at), y1: PAD.top, y2: HEIGHT - PAD.bottom });
  graph.replaceChildren(grid, ...lines, here);
  graph.setAttribute("aria-label", `${t("replay.eval.graph")} (${players.join(", ")})`);
  $("eval-legend").replaceChildren(...players.map((name, seat) => el("li", { class: `seat-${seat}` },
    el("span", { class: `swatch seat-${seat}`, "aria-hidden": "true" }), name)));
  describe(at);
}

/** What was decided at position `at` (the decision pending there): the best move, the one played and its cost. */
function describe(at) {
  const box = $("eval-here");
  const entry = review.decisions.find((e) => e.at === at);
  box.hidden = false;
  box.dataset.at = String(at);
  if (!entry) {
    box.replaceChildren(el("p", { class: "hint", text: t("replay.eval.none") }));
    return;
  }
  const head = el("p", {}, el("strong", { text: `${entry.when}` }));
  if (entry.forced) {
    box.replaceChildren(head, el("p", { class: "played", text: `${labelled("replay.eval.played")}${entry.played.text} (${t("replay.eval.forced")})` }));
    return;
  }
  const mine = playedMove(entry);
  const best = entry.moves[0];
  const cost = entry.drop === null ? t("replay.eval.illegal")
    : `${t("replay.eval.cost")} −${points.format(100 * entry.drop)} ${t("replay.eval.points")}`
      + (entry.verdict ? ` — ${t(`replay.eval.${entry.verdict}`)}` : "")
      + (entry.by === "round" ? ` (−${points.format(100 * entry.round_drop)} ${t("replay.eval.points")} ${t("replay.eval.of_round")})` : "")
      + (entry.uncertain ? ` (${t("replay.eval.uncertain")})` : "");
  box.replaceChildren(head,
    el("p", { class: "best" }, labelled("replay.eval.best"), el("span", { class: "move", text: entry.best.text }), ` (${percent.format(best.game)})`),
    el("p", { class: `played${entry.verdict ? ` ${entry.verdict}` : ""}` }, labelled("replay.eval.played"),
      el("span", { class: "move", text: entry.played.text }), mine ? ` (${percent.format(mine.game)})` : "", ` — `,
      el("span", { class: "cost", text: cost })));
}
