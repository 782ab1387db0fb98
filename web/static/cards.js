// Cards drawn as cards: the project's own artwork (web/static/cards/<set>/<card>.svg, one set per look: "court"
// for 2019, 2019-classic and 2012, "pp" for Princess Princess), the value, the name and the effect in the page's
// language (the server sends them with the rulesets, web/words.py).
import { data, el } from "./common.js";

function info(ruleset, id) {
  return data.rulesets?.[ruleset]?.cards?.[id] ?? { value: "", name: id, the: id, effect: "" };
}

/** The address of a card's artwork in `ruleset`. */
export function artOf(ruleset, id) {
  return `/static/cards/${data.rulesets?.[ruleset]?.art ?? "court"}/${id}.svg`;
}

/** A card's name with its article, as a sentence uses it ("the Countess", « la Comtesse »). */
export function theCard(ruleset, id) {
  return info(ruleset, id).the;
}

/**
 * A card. `size` "full" shows its effect as text (the hand), "mini" keeps it in a tooltip (the table's rows);
 * `mark` is the attribute that names it: `data-card` for the zones that show what a seat knows (the tests read
 * them), another for a card that is only a choice or a memory (`data-guess`, `data-shown`).
 */
export function cardFace(ruleset, id, { tag = "li", size = "mini", mark = "data-card" } = {}) {
  const c = info(ruleset, id);
  const face = el(tag, { class: `card ${size}`, [mark]: id, title: size === "mini" ? `${c.name} (${c.value}): ${c.effect}` : null },
    el("img", { class: "art", src: artOf(ruleset, id), alt: "", width: size === "full" ? "96" : "28", height: size === "full" ? "96" : "28" }),
    el("span", { class: "value", text: String(c.value) }), " ",
    el("span", { class: "name", text: c.name }));
  if (size === "full") face.append(" ", el("span", { class: "effect", text: c.effect }));
  return face;
}
