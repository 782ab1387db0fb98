// The ladder page: one ladder (a ruleset and a table size) a page at a time, read from `GET /ladder` — the very
// answer any client gets — with each account's name a link to its page.
import { api, count, data, el, showProblem, t } from "./common.js";

const Z95 = 1.96; // the interval the ratings report elsewhere (play.report.Z95)

/** A rating as people read it, in the page's language: one decimal. */
export function figure(x) {
  return x.toLocaleString(data.lang === "fr" ? "fr-FR" : "en-GB", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** "27.9 (15.7 – 40.1)": the rating and its 95% interval. */
export function withInterval(mu, sigma) {
  return `${figure(mu)} (${figure(mu - Z95 * sigma)} – ${figure(mu + Z95 * sigma)})`;
}

function query(cursor) {
  const params = new URLSearchParams({ ruleset: data.ruleset, players: String(data.players) });
  if (cursor) params.set("cursor", cursor);
  if (data.limit !== 20) params.set("limit", String(data.limit));
  return params.toString();
}

function row(rung) {
  const tr = el("tr", { "data-account": rung.account_id, "data-mu": String(rung.mu), "data-sigma": String(rung.sigma) });
  tr.append(
    el("td", { class: "num", text: String(rung.rank) }),
    el("td", {}, el("a", { href: `/accounts/${encodeURIComponent(rung.account_id)}`, text: rung.name })),
    el("td", { text: t(`kind.${rung.kind}`) }),
    el("td", { class: "num", text: withInterval(rung.mu, rung.sigma) }),
    el("td", { class: "num", text: String(rung.games) }),
  );
  return tr;
}

async function show() {
  const answer = await api("GET", `/ladder?${query(data.cursor)}`);
  if (!answer.ok) {
    showProblem(document.getElementById("problem"), answer.body);
    return;
  }
  const ladder = answer.body;
  const body = document.querySelector("#ladder tbody");
  body.replaceChildren(...ladder.ratings.map(row));
  if (!ladder.ratings.length) {
    body.append(el("tr", {}, el("td", { colspan: "5", class: "empty", text: t("ladder.empty") })));
  }
  document.getElementById("summary").textContent = count(ladder.games, "ladder.folded_one", "ladder.folded");
  const next = document.getElementById("next");
  next.hidden = !ladder.next;
  if (ladder.next) next.href = `/ladder?${query(ladder.next)}`;
  document.getElementById("first").hidden = !data.cursor;
  document.body.dataset.loaded = "yes";
}

if (document.getElementById("choose")) show(); // the account page imports the figures above, not the page
