"""The replay viewer's and the statistics page's own words, added to the pages' catalogue (`web_i18n.WORDS`).

Kept apart from the lobby's and the seat page's words so the two sets of pages grow without touching each other;
`viewer_pages` adds them to the one catalogue when it is imported, and every test of the catalogue sees them.
"""

from __future__ import annotations

from loveletter.core.lang import Text

VIEWER_WORDS: dict[str, Text] = {
    # the replay and dispute viewer
    "replay.title": Text("Replay and disputes", "Relecture et litiges"),
    "replay.open": Text("Open a game", "Ouvrir une partie"),
    "replay.file": Text("A log (.jsonl) or a transcript (.json)", "Un journal (.jsonl) ou une transcription (.json)"),
    "replay.drop": Text(
        "…or drop the file anywhere on this page.", "…ou déposez le fichier n'importe où sur cette page."
    ),
    "replay.game": Text("A finished game's id", "L'identifiant d'une partie terminée"),
    "replay.go": Text("Open", "Ouvrir"),
    "replay.loading": Text("Reading the game…", "Lecture de la partie…"),
    "replay.audit": Text("Audit", "Vérification"),
    "replay.valid": Text(
        "Valid: every line and every move checks out.", "Valide : chaque ligne et chaque coup sont conformes."
    ),
    "replay.invalid": Text(
        "Invalid: the first problem is marked on the timeline.",
        "Invalide : le premier problème est marqué sur la frise.",
    ),
    "replay.problem_at": Text("First problem, at event", "Premier problème, à l'événement"),
    "replay.goto_problem": Text("Go to the problem", "Aller au problème"),
    "replay.stopped": Text(
        "The log's events cannot be applied from event",
        "Les événements du journal ne s'appliquent plus à partir de l'événement",
    ),
    "replay.pov": Text("Point of view", "Point de vue"),
    "replay.pov.spectator": Text("spectator", "spectateur"),
    "replay.pov.all": Text("everything (the game is over)", "tout (la partie est finie)"),
    "replay.position": Text("Position", "Position"),
    "replay.of": Text("of", "sur"),
    "replay.first": Text("First position", "Première position"),
    "replay.prev": Text("Previous position", "Position précédente"),
    "replay.next": Text("Next position", "Position suivante"),
    "replay.last": Text("Last position", "Dernière position"),
    "replay.link": Text("Link to this position", "Lien vers cette position"),
    "replay.keys": Text("Keys", "Touches"),
    "replay.keys.step": Text("← → one event back or forward", "← → un événement en arrière ou en avant"),
    "replay.keys.ends": Text(
        "Home, End: the first or the last position", "Début, Fin : la première ou la dernière position"
    ),
    "replay.keys.pov": Text("v: the next point of view", "« v » : le point de vue suivant"),
    "replay.keys.help": Text("?: show or hide these keys", "? : afficher ou masquer ces touches"),
    "replay.close": Text("Close", "Fermer"),
    "replay.hand": Text("Hand", "Main"),
    "replay.deck_all": Text("The deck, from the top", "La pioche, depuis le haut"),
    "replay.set_aside": Text("Set aside", "Mise de côté"),
    "replay.whatif": Text("What if this move had been played here?", "Et si ce coup avait été joué ici ?"),
    "replay.whatif.player": Text("Player", "Joueur"),
    "replay.whatif.card": Text("Card", "Carte"),
    "replay.whatif.target": Text("Target", "Cible"),
    "replay.whatif.guess": Text("Card named", "Carte nommée"),
    "replay.whatif.none": Text("(none)", "(aucune)"),
    "replay.whatif.kind": Text("Move", "Coup"),
    "replay.whatif.play": Text("play a card", "jouer une carte"),
    "replay.whatif.return": Text(
        "Chancellor: keep one, return the others", "Chancelier : en garder une, rendre les autres"
    ),
    "replay.whatif.bottom": Text("Under the deck, from the top:", "Sous la pioche, depuis le haut :"),
    "replay.whatif.ask": Text("Ask the referee", "Demander à l'arbitre"),
    "replay.legal": Text("Legal", "Permis"),
    "replay.illegal": Text("Refused", "Refusé"),
    "replay.sources": Text("Sources", "Sources"),
    "replay.event": Text("event", "événement"),
    # the statistics page
    "stats.title": Text("Statistics", "Statistiques"),
    "stats.run": Text("Run a simulation", "Lancer une simulation"),
    "stats.players": Text("Players", "Joueurs"),
    "stats.games": Text("Games", "Parties"),
    "stats.seed": Text("Seed", "Graine"),
    "stats.bot": Text("Bot of seat", "Robot du siège"),
    "stats.start": Text("Simulate", "Simuler"),
    "stats.progress": Text("Progress", "Avancement"),
    "stats.open": Text("Or open a simulation's file", "Ou ouvrir le fichier d'une simulation"),
    "stats.file": Text(
        "A log (loveletter simulate --log) or a report (--json)",
        "Un journal (« loveletter simulate --log ») ou un rapport (« --json »)",
    ),
    "stats.results": Text("Results", "Résultats"),
    "stats.summary": Text("games", "parties"),
    "stats.by_seat": Text("Win rate by seat", "Taux de victoire par siège"),
    "stats.by_bot": Text("Win rate by bot", "Taux de victoire par robot"),
    "stats.favors": Text("Favors per game, by reason", "Faveurs par partie, selon leur cause"),
    "stats.eliminations": Text("Eliminations per game, by card", "Éliminations par partie, selon la carte"),
    "stats.rounds": Text("Rounds per game", "Manches par partie"),
    "stats.interval": Text(
        "Bars show the estimate; whiskers its 95% confidence interval.",
        "Les barres montrent l'estimation ; les moustaches, son intervalle de confiance à 95 %.",
    ),
    "stats.seat": Text("seat", "siège"),
    "stats.reason.round": Text("round won", "manche gagnée"),
    "stats.reason.amira-sadie": Text("Amira & Sadie", "Amira & Sadie"),
    "stats.mean": Text("mean", "moyenne"),
    "stats.bot.random": Text("random", "hasard"),
    "stats.bot.heuristic": Text("heuristic", "heuristique"),
}
