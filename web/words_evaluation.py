"""The words of the replay viewer's evaluation graph (the review of every decision), in English and French: merged into
`web.words.WORDS`, kept here so that the catalogue of the pages stays readable."""

from __future__ import annotations

from loveletter.core.lang import Text

EVALUATION_WORDS: dict[str, Text] = {
    "replay.eval": Text("Evaluation", "Évaluation"),
    "replay.eval.run": Text("Analyse every decision", "Analyser chaque décision"),
    "replay.eval.starting": Text("Starting the analysis…", "Lancement de l'analyse…"),
    "replay.eval.progress": Text("Decisions analysed:", "Décisions analysées :"),
    "replay.eval.decisions": Text("decisions analysed", "décisions analysées"),
    "replay.eval.ready": Text("The evaluation is ready", "L'évaluation est prête"),
    "replay.eval.graph": Text(
        "Each player's chance of winning the game after each of their decisions",
        "La chance de chaque joueur de gagner la partie après chacune de ses décisions",
    ),
    "replay.eval.caption": Text(
        "Chance of winning the game after the move played, at each decision; larger dots mark inaccuracies, "
        "mistakes and blunders; the graph takes you to the position you pick.",
        "Chance de gagner la partie après le coup joué, à chaque décision ; les gros points marquent les "
        "imprécisions, erreurs et gaffes ; le graphique mène à la position choisie.",
    ),
    "replay.eval.none": Text(
        "Nobody decides at this position (chance deals, or the game is over).",
        "Personne ne décide à cette position (le hasard distribue, ou la partie est finie).",
    ),
    "replay.eval.best": Text("Best move", "Meilleur coup"),
    "replay.eval.played": Text("Played", "Joué"),
    "replay.eval.forced": Text("forced", "forcé"),
    "replay.eval.cost": Text("cost", "coût"),
    "replay.eval.points": Text("points", "points"),
    "replay.eval.illegal": Text("not a legal move here", "pas un coup légal ici"),
    "replay.eval.inaccuracy": Text("inaccuracy", "imprécision"),
    "replay.eval.mistake": Text("mistake", "erreur"),
    "replay.eval.blunder": Text("blunder", "gaffe"),
    "replay.eval.of_round": Text("of the round", "de la manche"),
    "replay.eval.uncertain": Text("uncertain", "incertain"),
}
