// The replay and dispute viewer: a game's log (a finished game of this referee, or a file dropped or picked) stepped
// position by position from one point of view. The page holds no rule: every position's view and story come from
// POST /replays/views, the verdict from POST /audits, a "what if" from POST /rulings, and the evaluation graph from
// POST /analyses (evaluation.js).
import { announce, api, cardName, data, el, hideProblem, labelled, showProblem, sourcesLine, t } from "./common.js";
import { cardFace } from "./cards.js";
import * as evaluation from "./evaluation.js";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);

let log = null; // the JSONL text, or a transcript object
let ruleset = "2019";
let players = [];
let over = false;
let pov = query.get("pov") || "spectator";
let at = Number(query.get("at")) || 0;
let answer = null; // POST /replays/views for `pov`
let stories = []; // the story told at each position of `answer`
let problemSeq = null;
const answers = new Map(); // pov -> [answer, stories]

/** A card as the seat page draws it (cards.js): its art, value and name, its effect in the tooltip. */
function card(id, tag = "li") {
  return cardFace(ruleset, id, { tag });
}

function nameOf(seat) {
  return players[seat] ?? `#${seat}`;
}

// -- loading -----------------------------------------------------------------------------------------------------

function fail(problem) {
  $("loading").textContent = "";
  showProblem($("problem"), problem);
}

async function openGame(gameId) {
  $("loading").textContent = t("replay.loading");
  const reply = await fetch(`/games/${encodeURIComponent(gameId)}/log`, { headers: { "Accept-Language": data.lang } });
  if (!reply.ok) {
    fail(await reply.json().catch(() => ({ title: String(reply.status) })));
    return;
  }
  await openLog(await reply.text());
}

/** A transcript is one JSON object (not a log's lone header line); anything else is taken as a JSONL log. */
function parseFile(text) {
  try {
    const doc = JSON.parse(text);
    if (doc && typeof doc === "object" && !Array.isArray(doc) && doc.format !== "loveletter-log") return doc;
  } catch {
    // not one JSON document: a JSONL log
  }
  return text;
}

async function openLog(content) {
  hideProblem($("problem"));
  $("loading").textContent = t("replay.loading");
  log = content;
  answers.clear();
  const first = await views(pov === "all" || /^\d+$/.test(pov) ? pov : "spectator");
  if (!first) {
    if (pov === "spectator") return;
    pov = "spectator"; // a point of view the game does not have: start as a spectator
    if (!(await views(pov))) return;
    hideProblem($("problem"));
  }
  await audit();
  $("loading").textContent = "";
  $("viewer").hidden = false;
  fillPovs();
  fillWhatIf();
  show(at || answer.positions.length);
  if (!performance.getEntriesByName("ll:replay-drawn").length) performance.mark("ll:replay-drawn"); // bench/
}

/** Fetch (once) and select the positions of point of view `which`; false (with the problem shown) if refused. */
async function views(which) {
  if (!answers.has(which)) {
    const reply = await api("POST", "/replays/views", { body: { log, pov: /^\d+$/.test(which) ? Number(which) : which, lang: data.lang } });
    if (!reply.ok) {
      fail(reply.body);
      return false;
    }
    const told = [];
    let lines = [];
    for (const position of reply.body.positions) {
      lines = lines.slice(0, position.story.keep).concat(position.story.add);
      told.push(lines);
    }
    answers.set(which, [reply.body, told]);
  }
  [answer, stories] = answers.get(which);
  pov = which;
  ruleset = answer.ruleset;
  players = answer.players;
  over = answer.over;
  return true;
}

let findings = []; // every problem the audit found, in the log's order

/** The position a finding is shown at: its event's, or the last one for a line past the events (the signature). */
function positionOf(problem) {
  const count = answer.positions.length;
  return problem.seq ? Math.min(problem.seq, count) : count;
}

async function audit() {
  let verdict = answer.replay.verdict;
  let first = answer.replay.first_problem;
  if (typeof log === "string") {
    const reply = await fetch(`/audits?lang=${data.lang}`, {
      method: "POST", body: log, headers: { "Content-Type": "application/x-ndjson", "Accept-Language": data.lang },
    });
    const report = await reply.json();
    if (!reply.ok) {
      fail(report);
      return;
    }
    const game = report.games[0];
    verdict = game.verdict;
    findings = game.problems;
    first = findings[0] ?? null;
  } else findings = first ? [first] : [];
  $("verdict-text").textContent = verdict === "valid" ? t("replay.valid") : t("replay.invalid");
  $("verdict").className = `panel verdict ${verdict}`;
  problemSeq = first ? positionOf(first) : null;
  $("first-problem").hidden = !first;
  if (first) {
    $("problem-at").textContent = first.seq ? t("replay.problem_at") : t("replay.problem_at_end");
    $("problem-seq").textContent = first.seq ? String(first.seq) : "";
    $("problem-rule-id").textContent = first.rule_id;
    $("problem-rule").textContent = data.rules[first.rule_id] ?? "";
    $("problem-message").textContent = first.message;
  }
  const more = findings.slice(1);
  $("more-problems-box").hidden = more.length === 0;
  $("more-problems").replaceChildren(...more.map((p) => {
    const go = el("button", { type: "button", class: "secondary", text: t("replay.goto_problem") });
    go.addEventListener("click", () => show(positionOf(p)));
    return el("li", { "data-position": String(positionOf(p)) },
      `${p.seq ? `${t("replay.at_event")} ${p.seq}` : t("replay.at_end")}${data.lang === "fr" ? "\u202f:" : ":"} `,
      el("code", { class: "rule-id", text: p.rule_id }), ` — ${p.message} `, go);
  }));
  $("stopped").hidden = answer.stopped === null;
  if (answer.stopped !== null) $("stopped").textContent = `${t("replay.stopped")} ${answer.stopped}.`;
}

// -- one position ------------------------------------------------------------------------------------------------

function fillPovs() {
  const options = [["spectator", t("replay.pov.spectator")], ...players.map((name, seat) => [String(seat), name])];
  if (over) options.push(["all", t("replay.pov.all")]);
  $("pov").replaceChildren(...options.map(([value, label]) => el("option", { value, text: label, selected: value === pov })));
}

function renderTable(position) {
  const view = position.view;
  $("round").textContent = view.round ? `${t("seat.round")} ${view.round}` : "";
  $("hand-panel").hidden = view.seat === null;
  $("hand").replaceChildren(...(view.hand.length ? view.hand.map((c) => card(c)) : [el("li", { text: t("seat.none") })]));
  $("deck-size").textContent = String(view.deck_size);
  $("face-up-box").hidden = view.face_up.length === 0;
  $("face-up").replaceChildren(...view.face_up.map((c) => card(c)));
  $("deck-known-box").hidden = view.deck_known.length === 0;
  $("deck-known").replaceChildren(...view.deck_known.map((k) =>
    el("li", {}, card(k.card, "span"), ` ${k.from_top + 1} ${t("seat.from_top")}`)));
  $("unseen").replaceChildren(...Object.entries(view.unseen).map(([c, n]) =>
    el("li", { "data-unseen": c }, card(c, "span"), ` ×${n}`)));
  const all = position.all;
  $("all-box").hidden = !all;
  $("deck-all").replaceChildren(...(all ? all.deck.map((c) => card(c)) : []));
  $("set-aside").replaceChildren(...(all?.set_aside ? [card(all.set_aside, "span")] : []));
  const winners = view.winners.map(nameOf).join(", ");
  $("status").textContent = winners ? `${t("seat.over")} ${labelled("seat.winners")}${winners}`
    : view.active !== null && view.active !== undefined ? `${t("seat.waiting")} ${nameOf(view.active)}…` : "";
  $("players").replaceChildren(...view.seats.map((s) => {
    const tags = el("span", { class: "tags" });
    const tag = (cls, text) => tags.append(el("span", { class: `tag ${cls}`, text }));
    if (s.seat === view.seat) tag("you", t("replay.pov"));
    if (view.active === s.seat && !view.winners.length) tag("active", "▶");
    if (s.protected) tag("protected", t("seat.protected"));
    if (!s.in_game) tag("gone", t("seat.gone"));
    else if (!s.in_round && view.round) tag("out", t("seat.out"));
    const li = el("li", { "data-seat": String(s.seat) },
      el("span", { class: "name", text: s.name }), tags,
      el("div", {}, labelled("seat.favors"), el("strong", { class: "favors", text: String(s.favors) })),
      el("div", {}, labelled("seat.played"), s.front.length
        ? el("ol", { class: "cards inline front", "aria-label": t("seat.played") }, ...s.front.map((c) => card(c)))
        : el("span", { text: t("seat.none") })));
    if (s.known_hand) li.append(el("div", { class: "known" }, labelled("seat.known"), card(s.known_hand, "span")));
    if (all) {
      li.append(el("div", { class: "hand-of" }, labelled("replay.hand"),
        el("ul", { class: "cards inline" }, ...all.hands[s.seat].map((c) => card(c)))));
    }
    return li;
  }));
}

function renderStory(index) {
  const lines = stories[index];
  const story = $("story");
  story.replaceChildren(...lines.map((line) => el("li", { text: line })));
  story.dataset.version = String(index + 1);
  story.lastElementChild?.scrollIntoView({ block: "nearest" });
}

function permalink() {
  const url = new URL(location.href);
  url.search = new URLSearchParams({ at: String(at), pov }).toString();
  return url;
}

function show(position) {
  const count = answer.positions.length;
  at = Math.max(1, Math.min(count, position));
  const current = answer.positions[at - 1];
  const slider = $("at");
  slider.max = String(count);
  slider.value = String(at);
  slider.setAttribute("aria-valuetext", `${at} ${t("replay.of")} ${count}: ${current.where}`);
  $("at-text").textContent = `${at} ${t("replay.of")} ${count}`;
  $("where").textContent = current.where;
  const mark = $("problem-mark");
  mark.hidden = problemSeq === null; // a problem past the positions shown (the log stopped) is marked at the end
  const left = (p) => `${count > 1 ? ((Math.min(p, count) - 1) / (count - 1)) * 100 : 100}%`;
  if (!mark.hidden) mark.style.left = left(problemSeq);
  $("more-marks").replaceChildren(...findings.slice(1).map((p) => {
    const more = el("span", { class: "problem-mark", "data-position": String(positionOf(p)) });
    more.style.left = left(positionOf(p));
    return more;
  }));
  $("heading").textContent = players.join(" · ");
  renderTable(current);
  renderStory(at - 1);
  document.body.dataset.version = String(at);
  document.body.dataset.pov = pov;
  const url = permalink();
  history.replaceState(null, "", url);
  $("permalink").href = url.toString();
  $("wi-player").value = String(current.view.active ?? $("wi-player").value);
  chooseKind(current.view.phase === "chancellor" ? "return" : "play"); // the decision pending here
  evaluation.draw(at, count, players);
  announce(stories[at - 1].at(-1) ?? current.where);
}

async function choosePov(which) {
  if (which === pov) return;
  const keep = at;
  if (await views(which)) {
    hideProblem($("problem"));
    fillPovs();
    show(keep);
  } else fillPovs();
}

function nextPov() {
  const options = [...$("pov").options].map((o) => o.value);
  return options[(options.indexOf(pov) + 1) % options.length];
}

// -- what if -----------------------------------------------------------------------------------------------------

function fillWhatIf() {
  const cards = Object.keys(data.rulesets[ruleset].cards);
  const none = () => el("option", { value: "", text: t("replay.whatif.none") });
  $("wi-player").replaceChildren(...players.map((name, seat) => el("option", { value: String(seat), text: name })));
  $("wi-card").replaceChildren(...cards.map((c) => el("option", { value: c, text: cardName(ruleset, c) })));
  $("wi-target").replaceChildren(none(), ...players.map((name, seat) => el("option", { value: String(seat), text: name })));
  $("wi-guess").replaceChildren(none(), ...cards.map((c) => el("option", { value: c, text: cardName(ruleset, c) })));
  $("wi-keep").replaceChildren(...cards.map((c) => el("option", { value: c, text: cardName(ruleset, c) })));
  for (const id of ["wi-bottom-0", "wi-bottom-1"]) {
    $(id).replaceChildren(none(), ...cards.map((c) => el("option", { value: c, text: cardName(ruleset, c) })));
  }
}

function chooseKind(kind) {
  $("wi-kind").value = kind;
  $("wi-play").hidden = kind !== "play";
  $("wi-return").hidden = kind !== "return";
}

async function askRuling(event) {
  event.preventDefault();
  const player = Number($("wi-player").value);
  let move;
  if ($("wi-kind").value === "return") {
    const bottom = ["wi-bottom-0", "wi-bottom-1"].map((id) => $(id).value).filter((c) => c !== "");
    move = { player, type: "return", keep: $("wi-keep").value, bottom };
  } else {
    move = { player, type: "play", card: $("wi-card").value };
    if ($("wi-target").value !== "") move.target = Number($("wi-target").value);
    if ($("wi-guess").value !== "") move.guess = $("wi-guess").value;
  }
  const box = $("ruling");
  const reply = await api("POST", "/rulings", { body: { log, at, move, lang: data.lang } });
  box.replaceChildren();
  box.hidden = false;
  if (!reply.ok) {
    showProblem(box, reply.body);
    box.className = "ruling problem";
    return;
  }
  const ruling = reply.body;
  box.className = `ruling ${ruling.legal ? "legal" : "illegal"}`;
  box.append(
    el("p", { class: "verdict-line" }, el("strong", { text: ruling.legal ? t("replay.legal") : t("replay.illegal") }), ` — ${ruling.message}`),
    el("p", { class: "rule" }, `${t("seat.rule")} `, el("code", { class: "rule-id", text: ruling.rule_id }), ` — ${ruling.rule}`),
    sourcesLine(ruling.rule_sources),
  );
  announce(`${ruling.legal ? t("replay.legal") : t("replay.illegal")}: ${ruling.rule_id}`);
}

// -- controls and keys -------------------------------------------------------------------------------------------

$("at").addEventListener("input", () => show(Number($("at").value)));
$("first").addEventListener("click", () => show(1));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(answer.positions.length));
$("goto-problem").addEventListener("click", () => show(problemSeq));
$("pov").addEventListener("change", () => choosePov($("pov").value));
$("whatif").addEventListener("submit", askRuling);
$("wi-kind").addEventListener("change", () => chooseKind($("wi-kind").value));
$("help-button").addEventListener("click", () => $("help").showModal());
$("permalink").addEventListener("click", (event) => {
  event.preventDefault();
  navigator.clipboard?.writeText(permalink().toString()).catch(() => {});
});

document.addEventListener("keydown", (event) => {
  if (!answer || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement
    || (target instanceof HTMLInputElement && target.type !== "range");
  if (event.key === "?") {
    if (typing) return;
    event.preventDefault();
    if ($("help").open) $("help").close();
    else $("help").showModal();
    return;
  }
  if (typing || $("help").open) return;
  const onSlider = target === $("at"); // the slider moves itself on arrows, Home and End
  const steps = { ArrowLeft: () => show(at - 1), ArrowRight: () => show(at + 1), Home: () => show(1),
    End: () => show(answer.positions.length) };
  if (steps[event.key] && !onSlider) {
    event.preventDefault();
    steps[event.key]();
  } else if (event.key === "v" || event.key === "V") {
    event.preventDefault();
    choosePov(nextPov());
  } else if (event.key === "a" || event.key === "A") {
    event.preventDefault();
    evaluation.run(analysisSource());
  }
});

/** What the evaluation reviews: a finished game of this referee by its id, else the log itself. */
function analysisSource() {
  return data.game_id ? { game_id: data.game_id } : { log };
}

evaluation.setUp(analysisSource, (position) => show(position));
document.addEventListener("ll:evaluated", () => show(at)); // the graph drawn as soon as the review is done

// -- where the log comes from -------------------------------------------------------------------------------------

async function readFile(file) {
  if (file) await openLog(parseFile(await file.text()));
}

$("file").addEventListener("change", () => readFile($("file").files[0]));
$("open-game").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = $("game-id").value.trim();
  if (id) location.href = `/replay/${encodeURIComponent(id)}`;
});
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("dropping");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  document.body.classList.remove("dropping");
  readFile(event.dataTransfer?.files?.[0]);
});

if (data.game_id) openGame(data.game_id);
