"""The seat page's words of issue 35 ("a table that feels like one": the hand as the control, the deck as a pile, the
story and the seat's tools folded on a phone) and the lobby's name check, in English and French: merged into
`web.words.WORDS`, kept here so that the catalogue stays under 400 lines."""

from __future__ import annotations

from loveletter.core.lang import Text

SEAT_WORDS: dict[str, Text] = {
    "seat.hand.pick": Text(
        "Choose the card to play: press it (Enter or Space), then Play.",
        "Choisissez la carte à jouer\u202f: appuyez dessus (Entrée ou Espace), puis Jouer.",
    ),
    "seat.deck.label": Text("Deck", "Pioche"),
    "seat.deck.card": Text("card", "carte"),
    "seat.deck.cards": Text("cards", "cartes"),
    "seat.set_aside": Text("Set aside, face down", "Mise de côté, face cachée"),
    "seat.tools": Text("Your seat: link, alerts, resign", "Votre siège\u202f: lien, alertes, abandon"),
    "seat.hand.keep": Text(
        "Choose the card to keep: press it (Enter or Space); the others go under the deck, then Play.",
        "Choisissez la carte à garder\u202f: appuyez dessus (Entrée ou Espace)\u202f; les autres vont sous la "
        "pioche, puis Jouer.",
    ),
    "seat.pick_keep": Text(
        "Point at the card of your hand you keep, then choose the order of the others under the deck.",
        "Montrez la carte de votre main que vous gardez, puis l'ordre des autres sous la pioche.",
    ),
    "seat.can_target.short": Text("target", "cible"),
    "lobby.name_needed": Text(
        "Enter your name: the other players see it at the table.",
        "Entrez votre nom\u202f: les autres joueurs le voient à la table.",
    ),
}
