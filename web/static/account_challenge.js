// On an account's page (issue 35): challenge it with the account this browser keeps (`POST /challenges`; me.js then
// waits for the answer on every page and opens the game when it is accepted), and the games it is playing now, each
// to watch (or to play, for a seat this browser holds).
import { api, data, el, hideProblem, seatLink, seats, showProblem, t } from "./common.js";
import { held, waitChallenge } from "./me.js";

const $ = (id) => document.getElementById(id);
const id = data.account_id;
let name = "";

/** The panel as the kept account stands to this one: a form to challenge it, "this is you", or "make an account". */
function panel() {
  const account = held();
  const form = $("challenge-form");
  $("challenge-h").textContent = t("challenge.title").replace("{name}", name);
  $("challenge-panel").hidden = false;
  form.hidden = !account || account.account_id === id;
  const note = $("challenge-note");
  if (!account) {
    note.replaceChildren(t("challenge.need_account"), " ", el("a", { href: "/", text: t("nav.lobby") }));
  } else if (account.account_id === id) note.textContent = t("challenge.self");
  else note.textContent = "";
}

async function challenge(event) {
  event.preventDefault();
  const account = held();
  if (!account) return;
  const box = $("challenge-error");
  hideProblem(box);
  const body = { key: account.key, to: id, ruleset: $("challenge-ruleset").value, rated: $("challenge-rated").checked };
  const answer = await api("POST", "/challenges", { body });
  if (!answer.ok) { showProblem(box, answer.body); return; }
  waitChallenge(answer.body.challenge_id);
  $("challenge-note").textContent = t("challenge.sent").replace("{name}", name);
}

let listed = "";

/** The account's games not over yet, among its newest ten: Watch (or Play, with a seat token of this browser). */
async function playing() {
  const account = await api("GET", `/accounts/${encodeURIComponent(id)}`);
  if (!account.ok) return;
  name = account.body.name;
  panel();
  const newest = account.body.games.slice(-10).reverse();
  const games = await Promise.all(newest.map((g) => api("GET", `/games/${encodeURIComponent(g)}`)));
  const live = games.filter((g) => g.ok && !g.body.over).map((g) => g.body);
  const key = JSON.stringify(live.map((g) => [g.game_id, g.players]));
  if (key === listed) return; // unchanged: the list (and the keyboard's place in it) stays
  $("playing").replaceChildren(...live.map((g) => {
    const token = seats.get(g.game_id);
    const who = `${data.rulesets[g.view.ruleset]?.title ?? g.view.ruleset} — ${g.players.map((p) => p || t("seat.open")).join(", ")}`;
    return el("li", { "data-game": g.game_id }, el("span", { class: "who", text: who }),
      el("a", { href: seatLink(g.game_id, token), text: t(token ? "lobby.play" : "lobby.watch") }));
  }));
  $("playing-panel").hidden = !live.length;
  listed = key;
}

$("challenge-form").addEventListener("submit", challenge);
window.addEventListener("ll-account", (event) => { if (!event.detail.challenges) panel(); });
playing().then(() => { document.body.dataset.challengeReady = "yes"; }); // no top-level await: account.js waits for none
window.setInterval(playing, 15000); // a game it starts meanwhile joins the list
