"""Every rule the referee enforces, with a stable id, its text in English and French, and its source.

Errors, rulings, docs and tests cite these ids; `docs/rules.md` is generated from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from loveletter.core.lang import Lang

S2019_FR = "000_91a7d2231e64ad36.txt"
S2019_WEB = "001_d78694f395ea141b.txt"
SPP = "002_ffde5cf4fb9261c3.txt"
S2019_EN = "003_0fc648c025107d8d.txt"
S2012 = "004_9723e0a7a62a3371.txt"


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    en: str
    fr: str
    sources: tuple[str, ...]

    def text(self, lang: Lang = "en") -> str:
        return self.fr if lang == "fr" else self.en


def _rules(*rules: Rule) -> Mapping[str, Rule]:
    table = {rule.id: rule for rule in rules}
    assert len(table) == len(rules), "duplicate rule id"
    return MappingProxyType(table)


RULES: Mapping[str, Rule] = _rules(
    Rule(
        "setup.ruleset",
        "A game is played under one of the rulesets 2019 (the default), 2019-classic, 2012 or princess-princess, "
        "and is created once, by the first event of its log.",
        "Une partie se joue selon l'un des jeux de règles « 2019 » (par défaut), « 2019-classic », « 2012 » ou "
        "« princess-princess » ; elle n'est créée qu'une fois, par le premier événement de son journal.",
        ("RULINGS §1",),
    ),
    Rule(
        "setup.players",
        "A game has between the ruleset's minimum and maximum number of players, each with a distinct name.",
        "Une partie réunit entre le nombre minimal et le nombre maximal de joueurs de son jeu de règles, chacun sous "
        "un nom distinct.",
        ("RULINGS §1", S2019_EN, S2012),
    ),
    Rule(
        "setup.options",
        "Rule options are chosen when the game is created and cannot change afterwards.",
        "Les options de règle se choisissent à la création de la partie et ne changent plus ensuite.",
        ("RULINGS §11",),
    ),
    Rule(
        "setup.deal",
        "Each round uses the whole shuffled deck: one card set aside face down, three more face up with two "
        "players, one card dealt to each player, the rest is the draw pile.",
        "Chaque manche utilise tout le paquet, mélangé : une carte mise de côté face cachée, trois autres mises de "
        "côté face visible dans une partie à deux joueurs, une carte distribuée à chaque joueur ; le reste forme la "
        "pioche.",
        ("RULINGS §2", S2019_FR, S2019_EN),
    ),
    Rule(
        "setup.first-player",
        "The first round's first player is the one named at creation, or drawn at random. Later rounds start "
        "with the previous round's winner; among several winners, or when nobody won, the first player is drawn "
        "at random (among the winners, or among all players).",
        "Le premier joueur de la première manche est celui qui a été désigné à la création de la partie ; à défaut, "
        "il est tiré au sort. Chaque manche suivante commence par le vainqueur de la précédente ; s'il y en a "
        "plusieurs, ou aucun, le premier joueur est tiré au sort (parmi les vainqueurs, ou parmi tous les joueurs).",
        ("RULINGS §2", S2019_FR, S2019_EN),
    ),
    Rule(
        "round.not-started",
        "Between rounds nobody plays until the next round has been dealt.",
        "Entre deux manches, personne ne joue avant que la manche suivante ait été distribuée.",
        ("RULINGS §2",),
    ),
    Rule(
        "turn.order",
        "Players take turns clockwise (in seat order); only the active player may act, and eliminated players "
        "are skipped.",
        "Les joueurs jouent à tour de rôle dans le sens horaire (l'ordre des sièges) ; seul le joueur actif peut "
        "agir, et les joueurs éliminés passent leur tour.",
        ("RULINGS §3", S2019_FR, S2019_EN),
    ),
    Rule(
        "turn.play-from-hand",
        "On your turn you draw a card, then play one of the two cards in your hand.",
        "À votre tour, vous piochez une carte, puis vous jouez l'une des deux cartes de votre main.",
        ("RULINGS §3", S2019_FR, S2019_EN),
    ),
    Rule(
        "target.required",
        "A card that chooses a player must choose a legal one when one exists; playing it with no effect is "
        "only allowed when no legal target exists.",
        "Une carte qui désigne un joueur doit désigner une cible valide s'il en existe une ; la jouer sans effet "
        "n'est permis que s'il n'existe aucune cible valide.",
        ("RULINGS §3",),
    ),
    Rule(
        "target.other",
        "The Guard, Priest, Baron and King choose another player, never yourself.",
        "Le Garde, le Prêtre, le Baron et le Roi ciblent un autre joueur, jamais vous-même.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "target.eliminated",
        "A player who is out of the round cannot be chosen by any effect.",
        "Un joueur qui a quitté la manche ne peut être ciblé par aucun effet.",
        ("RULINGS §4", S2019_FR, S2019_EN),
    ),
    Rule(
        "target.protected",
        "A player protected by the Handmaid cannot be chosen by other players' effects; choosing them is refused, "
        "not played without effect.",
        "Un joueur protégé par la Servante ne peut pas être ciblé par les effets des autres joueurs ; un coup qui le "
        "cible est refusé, et non joué sans effet.",
        ("RULINGS §5", S2019_FR, S2019_EN, S2019_WEB),
    ),
    Rule(
        "target.none",
        "If every other player still in the round is protected, a Guard, Priest, Baron or King is played with no "
        "effect, and a Prince must choose the player themself.",
        "Si tous les autres joueurs encore en lice sont protégés, un Garde, un Prêtre, un Baron ou un Roi est joué "
        "sans effet, et le joueur qui joue un Prince doit se cibler lui-même.",
        ("RULINGS §5", S2019_FR, S2019_EN, S2019_WEB),
    ),
    Rule(
        "target.unexpected",
        "The Spy, Handmaid, Chancellor, Countess and Princess choose nobody, and only the Guard names a card.",
        "L'Espionne, la Servante, le Chancelier, la Comtesse et la Princesse ne ciblent personne, et seul le Garde "
        "nomme une carte.",
        ("RULINGS §5",),
    ),
    Rule(
        "guard.effect",
        "Guard: choose another player and name a card other than the Guard; if that player holds it, they are out "
        "of the round.",
        "Garde : choisissez un autre joueur et nommez une carte autre que le Garde ; si ce joueur a cette carte en "
        "main, il quitte la manche.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "guard.guess",
        "The Guard must name a card, and it may not name the Guard.",
        "Le Garde doit nommer une carte, et jamais le Garde lui-même.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "guard.guess-in-ruleset",
        "The Guard must name a card of the ruleset being played (option guard_unknown=refuse, the default); with "
        "guard_unknown=miss such a guess is legal and always misses.",
        "Le Garde doit nommer une carte du jeu de règles de la partie (option guard_unknown=refuse, par défaut) ; "
        "avec guard_unknown=miss, nommer une autre carte est permis, mais "
        "n'élimine jamais personne.",
        ("RULINGS §5", "RULINGS §11"),
    ),
    Rule(
        "priest.effect",
        "Priest: choose another player and look at their hand; only you learn the card.",
        "Prêtre : choisissez un autre joueur et regardez discrètement sa main ; vous seul découvrez sa carte.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "baron.effect",
        "Baron: choose another player and compare hands secretly; the lower value is out of the round. A tie does "
        "nothing; both players learn the other's card.",
        "Baron : choisissez un autre joueur et comparez discrètement vos mains ; celui qui a la carte de plus faible "
        "valeur quitte la manche. En cas d'égalité, personne ne la quitte ; chacun des deux découvre la carte de "
        "l'autre.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "handmaid.effect",
        "Handmaid: until the start of your next turn (or the end of the round), other players' effects cannot "
        "choose you.",
        "Servante : jusqu'au début de votre prochain tour (ou jusqu'à la fin de la manche), les effets des autres "
        "joueurs ne peuvent pas vous cibler.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "prince.effect",
        "Prince: choose any player, yourself included; they discard their hand face up without its effect and "
        "draw a new card, the face-down set-aside card if the deck is empty.",
        "Prince : choisissez n'importe quel joueur, y compris vous-même ; il défausse sa main face visible sans en "
        "résoudre l'effet et pioche une nouvelle carte (la carte mise de côté face cachée si la pioche est vide).",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "prince.princess",
        "A Princess discarded because of a Prince eliminates its holder, who draws nothing.",
        "Défausser la Princesse à cause d'un Prince élimine le joueur qui la détenait ; il ne pioche pas de nouvelle "
        "carte.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "chancellor.effect",
        "Chancellor: draw min(2, cards in deck) cards, keep one card of your hand and put the others on the "
        "bottom of the deck in the order you choose; with an empty deck it has no effect.",
        "Chancelier : piochez 2 cartes (1 seule s'il n'en reste qu'une), gardez une des cartes de votre main et "
        "placez les autres sous la pioche dans l'ordre de votre choix ; si la pioche est vide, il n'a pas d'effet.",
        ("RULINGS §5", S2019_FR, S2019_EN, S2019_WEB),
    ),
    Rule(
        "chancellor.return",
        "The Chancellor's second decision keeps exactly one card of the hand and returns all the others, in order.",
        "Lors de la seconde décision du Chancelier, le joueur garde exactement une carte de sa main et replace "
        "toutes les autres sous la pioche, dans l'ordre qu'il indique.",
        ("RULINGS §5",),
    ),
    Rule(
        "chancellor.pending",
        "After a Chancellor draws, its player must decide what to keep and return before anything else happens.",
        "Une fois les cartes du Chancelier piochées, le joueur qui l'a joué doit choisir la carte qu'il garde et "
        "celles qu'il replace avant toute autre action.",
        ("RULINGS §5", "RULINGS §6"),
    ),
    Rule(
        "king.effect",
        "King: choose another player and trade hands with them; both learn the card they receive.",
        "Roi : choisissez un autre joueur et échangez votre main contre la sienne ; chacun découvre la carte qu'il "
        "reçoit.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "countess.forced",
        "You must play the Countess if your other card is the King or a Prince (even if the Prince would have to "
        "target you); you may play it anyway. The rule does not apply to what a Chancellor keeps.",
        "Vous devez jouer la Comtesse si votre autre carte est le Roi ou un Prince (même si le Prince devait vous "
        "cibler) ; vous pouvez la jouer quand même. La règle ne s'applique pas à la carte gardée par un Chancelier.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "princess.eliminated",
        "Whoever plays or discards the Princess, for any reason, is out of the round. Playing it is legal.",
        "Quiconque joue ou défausse la Princesse, pour quelque raison que ce soit, quitte la manche. Il est permis "
        "de la jouer.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "spy.effect",
        "Spy: no effect when played or discarded.",
        "Espionne : aucun effet lorsqu'elle est jouée ou défaussée.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    Rule(
        "out.discard",
        "A player who is out of the round discards their hand face up without resolving it and is skipped until "
        "the round ends.",
        "Un joueur qui quitte la manche défausse sa main face visible sans en résoudre l'effet et passe son tour "
        "jusqu'à la fin de la manche.",
        ("RULINGS §4", S2019_FR, S2019_EN),
    ),
    Rule(
        "round.last-standing",
        "The round ends at once when only one player remains in it; that player wins the round.",
        "La manche s'achève immédiatement lorsqu'il ne reste qu'un joueur en lice ; il la remporte.",
        ("RULINGS §6", S2019_FR, S2019_EN),
    ),
    Rule(
        "round.deck-out",
        "After a turn (including its Chancellor decision) that leaves the deck empty, the players still in the "
        "round reveal their hands and the highest value wins.",
        "Après un tour (décision du Chancelier comprise) qui vide la pioche, les joueurs encore en lice révèlent "
        "leur main et celui qui détient la carte de plus forte valeur l'emporte.",
        ("RULINGS §6", S2019_FR, S2019_EN),
    ),
    Rule(
        "round.tie",
        "A showdown tie: in 2019, 2019-classic and princess-princess every tied player wins; in 2012 the tied "
        "player with the highest total of cards in front of them wins, and a tie that remains is settled by the "
        "tie_2012 option (nobody wins, or all win).",
        "Égalité lors de la révélation des mains : en « 2019 », « 2019-classic » et « princess-princess », tous les "
        "joueurs à égalité remportent la manche ; en « 2012 », celui d'entre eux dont les cartes posées devant lui "
        "ont la plus forte valeur totale l'emporte, et une égalité qui persiste se règle selon l'option tie_2012 "
        "(personne ne gagne, ou tous gagnent).",
        ("RULINGS §1", "RULINGS §11", S2012, S2019_EN),
    ),
    Rule(
        "favor.round",
        "Each round winner gains one favor.",
        "Chaque vainqueur de la manche gagne un pion Faveur.",
        ("RULINGS §6", S2019_FR, S2019_EN),
    ),
    Rule(
        "favor.spy",
        "If exactly one player still in the round played or discarded a Spy this round, they gain one favor, once, "
        "in addition to any round win. Players out of the round neither gain nor block it.",
        "Si un seul joueur encore en lice a joué ou défaussé une Espionne pendant la manche, il gagne un pion "
        "Faveur, une seule fois, en plus de celui d'une éventuelle victoire de la manche. Les joueurs éliminés ne le "
        "gagnent pas et n'empêchent personne de le gagner.",
        ("RULINGS §7", S2019_FR, S2019_EN, S2019_WEB),
    ),
    Rule(
        "favor.amira-sadie",
        "Princess Princess: if two different players still in the round each played or discarded a value-6 card "
        "this round, each gains one favor.",
        "Princesse Princesse : si deux joueurs différents encore en lice ont chacun joué ou défaussé une carte de "
        "valeur 6 pendant la manche, chacun gagne un pion Faveur.",
        ("RULINGS §8", SPP),
    ),
    Rule(
        "game.end",
        "After a round's favors are given, every player at or above the ruleset's threshold wins the game; several "
        "can win at once.",
        "Une fois les pions Faveur de la manche attribués, tout joueur qui en a au moins autant que le demande le "
        "jeu de règles remporte la partie ; plusieurs joueurs peuvent la remporter simultanément.",
        ("RULINGS §9", S2019_FR, S2019_EN, S2012),
    ),
    Rule(
        "game.over",
        "Once the game has ended nobody plays any more.",
        "Une fois la partie terminée, plus personne ne joue.",
        ("RULINGS §9",),
    ),
    Rule(
        "log.sequence",
        "A game's events are numbered 1, 2, 3… in order, without gaps or repeats, and a log starts with the game's "
        "creation.",
        "Les événements d'une partie sont numérotés 1, 2, 3… dans l'ordre, sans lacune ni doublon, et un journal "
        "commence par la création de la partie.",
        ("events/log.py",),
    ),
    Rule(
        "log.consistent",
        "Every event written in a log must be exactly what the rules derive from the decisions before it: a "
        "decision (a card played, a Chancellor's return, a deal) where one is due, and its consequences as the "
        "rules compute them.",
        "Chaque événement écrit dans un journal doit être exactement ce que les règles déduisent des décisions "
        "précédentes : une décision (carte jouée, retour du Chancelier, distribution) quand elle est attendue, et "
        "ses conséquences telles que les règles les calculent.",
        ("RULINGS §10", "events/log.py"),
    ),
    Rule(
        "shuffle.commitment",
        "When the referee shuffles, it commits at creation to the SHA-256 of a secret 256-bit server seed and "
        "reveals that seed only once the game is over; the revealed seed must match the commitment.",
        "Quand l'arbitre mélange lui-même, il s'engage dès la création de la partie en publiant le SHA-256 d'une "
        "graine secrète de 256 bits, la graine du serveur, et ne révèle cette graine qu'une fois la partie terminée ; "
        "la graine révélée doit correspondre à cet engagement.",
        ("docs/shuffle.md", "our ruling"),
    ),
    Rule(
        "shuffle.seat-seed",
        "Each seat may add one 256-bit seed of its own (64 hex digits) before the game ends; it is mixed into "
        "every round dealt after it.",
        "Chaque siège peut ajouter sa propre graine de 256 bits (64 chiffres hexadécimaux) avant la fin de la "
        "partie ; elle entre dans le mélange de chaque manche distribuée ensuite.",
        ("docs/shuffle.md", "our ruling"),
    ),
    Rule(
        "shuffle.derivation",
        "Each round's deck order and random first player are derived from the server seed and the seat seeds "
        "given before the round (HMAC-SHA256 in counter mode driving an unbiased Fisher–Yates).",
        "L'ordre du paquet et le premier joueur tiré au sort de chaque manche découlent de la graine du serveur et "
        "des graines des sièges fournies avant la manche (HMAC-SHA256 en mode compteur, qui alimente un mélange de "
        "Fisher–Yates sans biais).",
        ("docs/shuffle.md", "RULINGS §2"),
    ),
    Rule(
        "log.chain",
        "Every event line carries the SHA-256 of the line before it (the header, for the first event), computed "
        "over its canonical JSON: a changed, removed, added or moved line breaks the chain.",
        "Chaque ligne d'événement porte le SHA-256 de la ligne précédente (l'en-tête, pour le premier événement), "
        "calculé sur le JSON canonique de cette ligne : une ligne modifiée, supprimée, ajoutée ou déplacée rompt la "
        "chaîne.",
        ("docs/log-format.md",),
    ),
    Rule(
        "log.signature",
        "An exported log ends with the referee's Ed25519 signature over the hash of its last line.",
        "Un journal exporté se termine par la signature Ed25519 de l'arbitre sur le condensé de sa dernière ligne.",
        ("docs/log-format.md",),
    ),
    Rule(
        "info.views",
        "Each player sees public information, their own hand and what their own cards showed them; the deck order "
        "and the face-down card are known to nobody until the round ends.",
        "Chaque joueur voit les informations publiques, sa propre main et ce que ses propres cartes lui ont montré ; "
        "l'ordre de la pioche et la carte mise de côté face cachée ne sont connus de personne avant la fin de la "
        "manche.",
        ("RULINGS §10",),
    ),
    Rule(
        "position.possible",
        "A position described in the middle of a round is possible only if its cards and the unknown ones make up "
        "exactly the ruleset's deck: no more copies of a card than the deck holds, one card in each hand still in "
        "the round and two in the hand of the player to play, and as many unseen cards as unknown places for them.",
        "Une position décrite en cours de manche n'est possible que si ses cartes et les cartes inconnues forment "
        "exactement le paquet du jeu de règles : pas plus d'exemplaires d'une carte que le paquet n'en compte, une "
        "carte dans chaque main encore en jeu et deux dans celle du joueur qui doit jouer, et autant de cartes non "
        "vues que de places inconnues pour elles.",
        ("RULINGS §1", "RULINGS §2"),
    ),
    Rule(
        "lobby.join",
        "A game may leave seats open when it is created. An open seat is taken once, under a name nobody at the "
        "table has, and only before the first round is dealt.",
        "Une partie peut laisser des sièges ouverts à sa création. Un siège ouvert se prend une seule fois, sous un "
        "nom qu'aucun joueur de la table ne porte, et seulement avant la distribution de la première manche.",
        ("docs/api.md",),
    ),
    Rule(
        "lobby.deal",
        "The first round is dealt once every seat is taken.",
        "La première manche n'est distribuée qu'une fois tous les sièges pris.",
        ("docs/api.md",),
    ),
    Rule(
        "leave.resign",
        "A player may resign once the game has been dealt: they are out of the round at once, their hand "
        "discarded face up without effect (a Spy discarded this way gains no favor), and if it was their turn the "
        "turn ends there, a Chancellor's decision included. When only one player is left in the game, that "
        "player wins it at once.",
        "Un joueur peut abandonner une fois la partie distribuée : il quitte aussitôt la manche, sa main est "
        "défaussée face visible sans effet (une Espionne défaussée ainsi ne rapporte aucune faveur) et, si c'était "
        "son tour, le tour s'arrête là, décision du Chancelier comprise. Quand il ne reste qu'un joueur dans la "
        "partie, celui-ci la gagne aussitôt.",
        ("RULINGS §12",),
    ),
    Rule(
        "leave.gone",
        "A player who has left the game makes no more moves, is dealt no card in later rounds (two players left "
        "play the 2-player setup) and cannot win the game; their favors stay on the record, and the number of "
        "favors needed to win stays the one of the starting player count.",
        "Un joueur qui a quitté la partie ne joue plus, ne reçoit aucune carte dans les manches suivantes (deux "
        "joueurs restants jouent avec la mise en place à deux) et ne peut pas gagner la partie ; ses faveurs "
        "restent acquises, et le nombre de faveurs nécessaire pour gagner reste celui du nombre de joueurs du "
        "départ.",
        ("RULINGS §12",),
    ),
    Rule(
        "leave.abort",
        "The game's organiser may abort it before it ends: nobody wins, and nothing after it is accepted.",
        "L'organisateur d'une partie peut l'annuler avant sa fin : personne ne gagne, et plus rien n'est accepté "
        "ensuite.",
        ("RULINGS §12",),
    ),
    Rule(
        "clock.deadline",
        "A game may have a turn clock: turn_seconds (1 second to 7 days) for each decision, and what happens when "
        "it runs out (on_timeout: bot or resign). Each pending decision has one deadline, turn_seconds after its "
        "clock was started.",
        "Une partie peut avoir une pendule : « turn_seconds » (d'une seconde à sept jours) pour chaque décision, "
        "et ce qui se passe quand le temps est écoulé (« on_timeout » : « bot » ou « resign »). Chaque décision "
        "en attente a une échéance, « turn_seconds » après le départ de sa pendule.",
        ("RULINGS §12",),
    ),
    Rule(
        "clock.timeout",
        "A timeout is recorded only once the deadline has passed. Then, as the game says, the seat resigns, or the "
        "server's heuristic bot makes the pending decision as an ordinary move of that seat.",
        "Un dépassement de temps n'est enregistré qu'une fois l'échéance passée. Alors, selon la partie, le siège "
        "abandonne, ou le robot « heuristic » du serveur prend la décision en attente, comme un coup ordinaire "
        "de ce siège.",
        ("RULINGS §12",),
    ),
    Rule(
        "clock.order",
        "The times a log records (joins, clocks, timeouts, resignations, an abort) never go backwards.",
        "Les heures qu'un journal enregistre (arrivées, pendules, dépassements, abandons, annulation) ne "
        "reviennent jamais en arrière.",
        ("RULINGS §12",),
    ),
)


def rule(rule_id: str) -> Rule:
    return RULES[rule_id]


class RuleViolation(ValueError):
    """A command the rules refuse. `code` is a stable machine code; `rule_id` names the rule broken."""

    def __init__(self, code: str, rule_id: str, en: str, fr: str) -> None:
        assert rule_id in RULES, rule_id
        super().__init__(en)
        self.code = code
        self.rule_id = rule_id
        self.en = en
        self.fr = fr

    def message(self, lang: Lang = "en") -> str:
        return self.fr if lang == "fr" else self.en

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "rule_id": self.rule_id, "en": self.en, "fr": self.fr}

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.rule_id!r}, {self.en!r})"
