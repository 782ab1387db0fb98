// The lobby's account panel and quick pairing (issue 35, docs/web.md "An account in the browser"): make an account
// with a name (its key shown once, copied with one click, kept in this browser), or paste the key of one made
// elsewhere; who you are; leave it (after a confirmation); the challenges' sound and notification; and the grid of
// rated games, each a seek posted with the kept key, "looking for an opponent…" with Cancel until it is paired (me.js
// then opens the game).
import { announce, api, el, hideProblem, showProblem, t } from "./common.js";
import { alertChoices, chooseAlerts, forgetSeek, held, keep, leave, waitSeek, waitedSeek } from "./me.js";

const $ = (id) => document.getElementById(id);

function problemBox(id) {
  return el("div", { id, class: "problem", role: "alert", hidden: true });
}

/** A button that copies `text` (the field beside it can still be copied by hand). */
export function copyButton(text, id) {
  const button = el("button", { type: "button", id, class: "secondary", text: t("lobby.copy") });
  button.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); } catch { /* the field can still be copied by hand */ }
    button.textContent = t("lobby.copied");
    announce(t("lobby.copied"));
  });
  return button;
}

/** No account kept: make one, or paste the key of one made elsewhere. */
function anonymous(panel) {
  const name = el("input", { id: "account-name", required: true, maxlength: 40, autocomplete: "nickname",
    spellcheck: "false", "aria-describedby": "account-make-hint" });
  const made = problemBox("account-make-error");
  const make = el("form", { id: "account-make" },
    el("label", { for: "account-name", text: t("me.name") }), " ", name, " ",
    el("button", { type: "submit", text: t("me.make") }));
  make.addEventListener("submit", async (event) => {
    event.preventDefault();
    hideProblem(made);
    const answer = await api("POST", "/accounts", { body: { name: name.value.trim(), kind: "person" } });
    if (!answer.ok) { showProblem(made, answer.body); return; }
    keep(answer.body);
    revealed(panel, answer.body);
  });
  const key = el("input", { id: "account-key-input", type: "password", autocomplete: "off", spellcheck: "false",
    required: true, maxlength: 200, "aria-describedby": "account-key-hint" });
  const pasted = problemBox("account-error");
  const paste = el("form", { id: "account-form" },
    el("label", { for: "account-key-input", text: t("lobby.account.key") }), " ", key, " ",
    el("button", { type: "submit", text: t("lobby.account.use") }));
  paste.addEventListener("submit", async (event) => {
    event.preventDefault();
    hideProblem(pasted);
    const value = key.value.trim();
    const answer = await api("POST", "/accounts/holder", { body: { key: value } });
    if (!answer.ok) { showProblem(pasted, answer.body); return; }
    keep({ key: value, account_id: answer.body.account_id, name: answer.body.name });
    announce(`${t("lobby.account.as")} ${answer.body.name}`);
    $("account-forget").focus();
  });
  panel.replaceChildren(
    el("h3", { text: t("me.make") }), make,
    el("p", { id: "account-make-hint", class: "hint", text: t("me.make.hint") }), made,
    el("h3", { text: t("me.other_device") }), paste,
    el("p", { id: "account-key-hint", class: "hint", text: t("lobby.account.hint") }), pasted);
}

/** Just made: the key, shown this once, with its Copy button and what losing it means. */
function revealed(panel, account) {
  const field = el("input", { id: "account-new-key", value: account.key, readonly: true, autocomplete: "off",
    spellcheck: "false", "aria-describedby": "account-key-lost" });
  const done = el("button", { type: "button", id: "account-kept", text: t("me.key.kept") });
  done.addEventListener("click", () => { draw(); $("account-held").querySelector("a").focus(); });
  panel.replaceChildren(
    el("p", { id: "account-made" }, `${t("me.made")} `, el("strong", { text: account.name })),
    el("p", {}, el("label", { for: "account-new-key", text: t("me.key") }), el("br"), field, " ",
      copyButton(account.key, "account-copy")),
    el("p", { id: "account-key-lost", class: "warning", text: t("me.key.lost") }),
    el("p", {}, done));
  announce(`${t("me.made")} ${account.name}`);
  $("account-copy").focus();
}

/** An account kept: who you are, the challenges' alerts, and leaving it (asked twice). */
function kept(panel, account) {
  const forget = el("button", { type: "button", id: "account-forget", class: "secondary", text: t("me.leave") });
  const sure = el("div", { id: "account-leave", class: "confirm", hidden: true },
    el("p", { id: "account-leave-text", tabindex: "-1",
      text: t("me.leave.confirm").replace("{name}", account.name) }));
  const yes = el("button", { type: "button", id: "account-leave-yes", class: "danger", text: t("me.leave.yes") });
  const no = el("button", { type: "button", id: "account-leave-no", class: "secondary", text: t("me.leave.no") });
  sure.append(el("p", {}, yes, " ", no));
  forget.addEventListener("click", () => { sure.hidden = false; forget.hidden = true; $("account-leave-text").focus(); });
  no.addEventListener("click", () => { sure.hidden = true; forget.hidden = false; forget.focus(); });
  yes.addEventListener("click", () => {
    leave();
    announce(t("lobby.account.forgotten"));
    $("account-name").focus();
  });
  panel.replaceChildren(
    el("p", { id: "account-held" }, `${t("me.you")} `,
      el("a", { href: `/accounts/${encodeURIComponent(account.account_id)}`, text: account.name }),
      ` (${account.key.slice(0, 7)}…)`),
    alerts(), el("p", {}, forget), sure);
}

/** The sound and notification for a challenge received, both off until asked for. */
function alerts() {
  const picked = alertChoices();
  const sound = el("input", { type: "checkbox", id: "challenge-sound", checked: picked.sound });
  const notify = el("input", { type: "checkbox", id: "challenge-notify", checked: picked.notify });
  const denied = el("p", { id: "challenge-denied", class: "hint", hidden: true, text: t("seat.alert.denied") });
  const save = () => chooseAlerts({ sound: sound.checked, notify: notify.checked });
  sound.addEventListener("change", save);
  notify.addEventListener("change", async () => {
    if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
      if (await Notification.requestPermission() !== "granted") { notify.checked = false; denied.hidden = false; }
    }
    save();
  });
  return el("fieldset", { id: "challenge-alerts" }, el("legend", { text: t("me.alerts") }),
    el("span", { class: "choice" }, sound, " ", el("label", { for: "challenge-sound", text: t("seat.alert.sound") })), " ",
    el("span", { class: "choice" }, notify, " ", el("label", { for: "challenge-notify", text: t("seat.alert.notify") })),
    denied);
}

function draw() {
  const panel = $("account-key");
  const account = held();
  if (account) kept(panel, account);
  else anonymous(panel);
  quick();
}

// -- quick pairing ------------------------------------------------------------------------------------------------

const grid = [...document.querySelectorAll("#quick-grid button")];
let chosen = 0; // the grid button last used: the focus goes back to it when the search ends

function label(button) {
  return [...button.querySelectorAll("span")].map((s) => s.textContent.trim()).join(" · ");
}

/** The grid and the search as they stand: buttons for a kept account, "looking…" while a seek waits. */
function quick() {
  const account = held();
  const seek = account ? waitedSeek() : null;
  $("quick-need").hidden = Boolean(account);
  for (const button of grid) button.disabled = !account || Boolean(seek);
  const focused = $("seeking").contains(document.activeElement);
  $("seeking").hidden = !seek;
  if (seek) {
    $("seeking-text").textContent = `${t(seek.players > 2 ? "quick.looking.many" : "quick.looking")} ${seek.label}`;
  } else if (focused) grid[chosen]?.focus(); // the search ended: the keyboard goes back to the button it came from
}

async function seek(button) {
  const account = held();
  if (!account) return;
  const box = $("quick-error");
  hideProblem(box);
  $("quick-news").textContent = "";
  chosen = grid.indexOf(button);
  const { ruleset } = button.dataset;
  const players = Number(button.dataset.players);
  const seconds = Number(button.dataset.seconds);
  const body = { key: account.key, ruleset, players, turn_seconds: seconds, rated: true };
  const answer = await api("POST", "/seeks", { body });
  if (!answer.ok) { showProblem(box, answer.body); return; }
  waitSeek({ seek_id: answer.body.seek_id, ruleset, players, turn_seconds: seconds, label: label(button) });
  announce($("seeking-text").textContent);
  $("seek-cancel").focus();
}

async function cancel() {
  const account = held();
  const waited = waitedSeek();
  if (!account || !waited) return;
  const answer = await api("DELETE", `/seeks/${encodeURIComponent(waited.seek_id)}`, { token: account.key });
  if (answer.ok || answer.status === 404) {
    forgetSeek();
    $("quick-news").textContent = t("quick.cancelled");
    announce(t("quick.cancelled"));
    grid[chosen]?.focus();
  } else if (answer.status !== 409) showProblem($("quick-error"), answer.body); // 409: paired meanwhile, me.js opens it
}

for (const button of grid) button.addEventListener("click", () => seek(button));
$("seek-cancel").addEventListener("click", cancel);
window.addEventListener("ll-account", (event) => {
  if (event.detail.seek || event.detail.challenges) quick();
  else draw();
});
draw();
