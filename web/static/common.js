// What every page shares: its data from the server, its words, calls to the referee's API, the tokens this
// browser holds, the aria-live line and the language switch.

export const data = JSON.parse(document.getElementById("page-data").textContent);
export const lang = data.lang;

/** A word of the page's catalogue, in the page's language. */
export function t(key) {
  return data.words[key] ?? key;
}

const plurals = new Intl.PluralRules(lang === "fr" ? "fr-FR" : "en-GB");

/** "1 open seat", "2 open seats"; French counts 0 and 1 as singular (« 0 siège libre »). The language's own plural
 * rule, of the number `n` says (an API's count read as a string is still a number: "1" is one). */
export function count(n, one, many) {
  return `${n} ${t(plurals.select(Number(n)) === "one" ? one : many)}`;
}

/** "Winners: " / « Gagnants : »: a word of the catalogue as a label before a colon, French typography included
 * (a narrow no-break space before the colon). */
export function labelled(key) {
  return `${t(key)}${lang === "fr" ? "\u202f:" : ":"} `;
}

/** A card's name in the game's ruleset and the page's language. */
export function cardName(ruleset, card) {
  const info = data.rulesets?.[ruleset]?.cards?.[card];
  return info ? info.name : card;
}

export function cardValue(ruleset, card) {
  return data.rulesets?.[ruleset]?.cards?.[card]?.value ?? "";
}

/** Call the referee: `{ok, status, body}`, the body parsed when it is JSON; never throws on an HTTP error. */
export async function api(method, path, { body, token } = {}) {
  const headers = { "Accept-Language": lang, Accept: "application/json, application/problem+json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let answer;
  try {
    answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    return { ok: false, status: 0, body: { title: String(error) } };
  }
  const type = answer.headers.get("content-type") || "";
  const parsed = type.includes("json") ? await answer.json() : await answer.text();
  return { ok: answer.ok, status: answer.status, body: parsed };
}

/** Fill a problem box (role=alert) with a refusal: its detail, and its rule id and text when it has one. */
export function showProblem(box, problem) {
  box.replaceChildren();
  const head = document.createElement("p");
  head.textContent = `${labelled("seat.refused")}${problem.detail || problem.title || ""}`;
  box.append(head);
  if (problem.rule_id) {
    const rule = document.createElement("p");
    rule.className = "rule";
    const id = document.createElement("code");
    id.className = "rule-id";
    id.textContent = problem.rule_id;
    rule.append(`${t("seat.rule")} `, id, ` — ${problem.rule || ""}`);
    box.append(rule);
    if (problem.rule_sources) box.append(sourcesLine(problem.rule_sources));
  }
  box.hidden = false;
}

/** A rule's sources as a person reads them ("Rulings §5", "Love Letter (2019), English rules"), each a link to
 * the referee's rulings page where it has one: a new tab, so a seat or a replay stays where it was. */
export function sourcesLine(sources) {
  const line = el("p", { class: "hint sources" }, `${t("replay.sources")}${data.lang === "fr" ? "\u202f: " : ": "}`);
  sources.forEach((source, i) => {
    if (i > 0) line.append(data.lang === "fr" ? "\u202f; " : "; ");
    line.append(source.href ? el("a", { href: source.href, target: "_blank", rel: "noopener", text: source.text }) : source.text);
  });
  return line;
}

export function hideProblem(box) {
  box.hidden = true;
  box.replaceChildren();
}

/** Tell screen readers (the aria-live line). */
export function announce(text) {
  const line = document.getElementById("announce");
  line.textContent = "";
  window.setTimeout(() => { line.textContent = text; }, 30);
}

// Seat and organiser tokens stay in this browser: localStorage, one key per game, never sent to another seat.
export const seats = {
  get(game) { return localStorage.getItem(`ll.seat.${game}`); },
  set(game, token) { localStorage.setItem(`ll.seat.${game}`, token); remember(game); },
  forget(game) { localStorage.removeItem(`ll.seat.${game}`); }, // the seat's link then takes it back
  organiser(game) { return localStorage.getItem(`ll.org.${game}`); },
  setOrganiser(game, token) { localStorage.setItem(`ll.org.${game}`, token); remember(game); },
  games() { return JSON.parse(localStorage.getItem("ll.games") || "[]"); },
  // The invite links of a game's open seats, kept by the organiser's browser alone until the seats are full.
  invites(game) { return JSON.parse(localStorage.getItem(`ll.inv.${game}`) || "[]"); },
  setInvites(game, links) { localStorage.setItem(`ll.inv.${game}`, JSON.stringify(links)); },
  forgetInvites(game) { localStorage.removeItem(`ll.inv.${game}`); },
};

function remember(game) {
  const games = seats.games().filter((g) => g !== game);
  games.unshift(game);
  localStorage.setItem("ll.games", JSON.stringify(games.slice(0, 50)));
}

/** The lobby's link that takes open seat `invite` of `game` (the invite in the fragment, never sent to a server
 * but by the join itself). */
export function inviteLink(game, invite) {
  return `${location.origin}/#join=${encodeURIComponent(game)}&invite=${encodeURIComponent(invite)}`;
}

/** The seat page of `game` with its token in the fragment: the fragment never reaches a server. */
export function seatLink(game, token) {
  return `${location.origin}/play/${encodeURIComponent(game)}${token ? `#t=${encodeURIComponent(token)}` : ""}`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// The language switch keeps the page where it is (a seat's fragment included): the cookie, then a reload.
for (const link of document.querySelectorAll("a[data-lang]")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    document.cookie = `lang=${link.dataset.lang}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  });
}
