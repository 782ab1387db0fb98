// The invite links of a game's open seats, on the organiser's seat page until every seat is taken.
import { announce, el, seats, t } from "./common.js";

const $ = (id) => document.getElementById(id);

/** The organiser's browser holds the open seats' invite links (from the lobby) and shows them until every seat is
 * taken; then it forgets them. No other browser has them, so no other seat or spectator sees them. */
export function renderInvites(game, openSeats, over) {
  const open = new Set(openSeats);
  const links = seats.invites(game).filter((s) => open.has(s.seat));
  if (!open.size && !over) seats.forgetInvites(game);
  $("invites-panel").hidden = links.length === 0;
  $("invites").replaceChildren(...links.map((s) => {
    const id = `invite-${s.seat}`;
    const copy = el("button", { type: "button", class: "secondary", text: t("lobby.copy") });
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(s.url); } catch { $(id).select(); }
      announce(t("lobby.copied"));
    });
    return el("li", { "data-seat": String(s.seat) }, el("label", { for: id, text: `${t("lobby.seat")} ${s.seat + 1}` }),
      " ", el("input", { id, value: s.url, readonly: true }), " ", copy);
  }));
}
