"""The rules of play in English and French, each with its stable id and its sources: setting up, turns, targets,
every card, the end of a round, favors and the end of the game. Data only; `core.rules` makes the registry of them
(with the referee's own rules, `core.rule_texts_referee`), and `docs/rules.md` is generated from it."""

from __future__ import annotations

RuleText = tuple[str, str, str, tuple[str, ...]]
"""One rule as written: its id, its English text, its French text and its sources."""

# The rulebooks cited, by their file names (docs/glossary.md tells which is which).
S2019_FR = "000_91a7d2231e64ad36.txt"
S2019_WEB = "001_d78694f395ea141b.txt"
SPP = "002_ffde5cf4fb9261c3.txt"
S2019_EN = "003_0fc648c025107d8d.txt"
S2012 = "004_9723e0a7a62a3371.txt"

PLAY: tuple[RuleText, ...] = (
    (
        "setup.ruleset",
        "A game is played under one of the rulesets 2019 (the default), 2019-classic, 2012 or princess-princess, "
        "and is created once, by the first event of its log.",
        "Une partie se joue selon l'un des jeux de règles « 2019 » (par défaut), « 2019-classic », « 2012 » ou "
        "« princess-princess » ; elle n'est créée qu'une fois, par le premier événement de son journal.",
        ("RULINGS §1",),
    ),
    (
        "setup.players",
        "A game has between the ruleset's minimum and maximum number of players, each with a distinct name.",
        "Une partie réunit entre le nombre minimal et le nombre maximal de joueurs de son jeu de règles, chacun sous "
        "un nom distinct.",
        ("RULINGS §1", S2019_EN, S2012),
    ),
    (
        "setup.options",
        "Rule options are chosen when the game is created and cannot change afterwards.",
        "Les options de règle se choisissent à la création de la partie et ne changent plus ensuite.",
        ("RULINGS §11",),
    ),
    (
        "setup.deal",
        "Each round uses the whole shuffled deck: one card set aside face down, three more face up with two "
        "players, one card dealt to each player, the rest is the draw pile.",
        "Chaque manche utilise tout le paquet, mélangé : une carte mise de côté face cachée, trois autres mises de "
        "côté face visible dans une partie à deux joueurs, une carte distribuée à chaque joueur ; le reste forme la "
        "pioche.",
        ("RULINGS §2", S2019_FR, S2019_EN),
    ),
    (
        "setup.first-player",
        "The first round's first player is the one named at creation, or drawn at random. Later rounds start "
        "with the previous round's winner; among several winners, or when nobody won, the first player is drawn "
        "at random (among the winners, or among all players).",
        "Le premier joueur de la première manche est celui qui a été désigné à la création de la partie ; à défaut, "
        "il est tiré au sort. Chaque manche suivante commence par le vainqueur de la précédente ; s'il y en a "
        "plusieurs, ou aucun, le premier joueur est tiré au sort (parmi les vainqueurs, ou parmi tous les joueurs).",
        ("RULINGS §2", S2019_FR, S2019_EN),
    ),
    (
        "round.not-started",
        "Between rounds nobody plays until the next round has been dealt.",
        "Entre deux manches, personne ne joue avant que la manche suivante ait été distribuée.",
        ("RULINGS §2",),
    ),
    (
        "turn.order",
        "Players take turns clockwise (in seat order); only the active player may act, and eliminated players "
        "are skipped.",
        "Les joueurs jouent à tour de rôle dans le sens horaire (l'ordre des sièges) ; seul le joueur actif peut "
        "agir, et les joueurs éliminés passent leur tour.",
        ("RULINGS §3", S2019_FR, S2019_EN),
    ),
    (
        "turn.play-from-hand",
        "On your turn you draw a card, then play one of the two cards in your hand.",
        "À votre tour, vous piochez une carte, puis vous jouez l'une des deux cartes de votre main.",
        ("RULINGS §3", S2019_FR, S2019_EN),
    ),
    (
        "target.required",
        "A card that chooses a player must choose a legal one when one exists; playing it with no effect is "
        "only allowed when no legal target exists.",
        "Une carte qui désigne un joueur doit désigner une cible valide s'il en existe une ; la jouer sans effet "
        "n'est permis que s'il n'existe aucune cible valide.",
        ("RULINGS §3",),
    ),
    (
        "target.other",
        "The Guard, Priest, Baron and King choose another player, never yourself.",
        "Le Garde, le Prêtre, le Baron et le Roi ciblent un autre joueur, jamais vous-même.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "target.eliminated",
        "A player who is out of the round cannot be chosen by any effect.",
        "Un joueur qui a quitté la manche ne peut être ciblé par aucun effet.",
        ("RULINGS §4", S2019_FR, S2019_EN),
    ),
    (
        "target.protected",
        "A player protected by the Handmaid cannot be chosen by other players' effects; choosing them is refused, "
        "not played without effect.",
        "Un joueur protégé par la Servante ne peut pas être ciblé par les effets des autres joueurs ; un coup qui le "
        "cible est refusé, et non joué sans effet.",
        ("RULINGS §5", S2019_FR, S2019_EN, S2019_WEB),
    ),
    (
        "target.none",
        "If every other player still in the round is protected, a Guard, Priest, Baron or King is played with no "
        "effect, and a Prince must choose the player themself.",
        "Si tous les autres joueurs encore en lice sont protégés, un Garde, un Prêtre, un Baron ou un Roi est joué "
        "sans effet, et le joueur qui joue un Prince doit se cibler lui-même.",
        ("RULINGS §5", S2019_FR, S2019_EN, S2019_WEB),
    ),
    (
        "target.unexpected",
        "The Spy, Handmaid, Chancellor, Countess and Princess choose nobody, and only the Guard names a card.",
        "L'Espionne, la Servante, le Chancelier, la Comtesse et la Princesse ne ciblent personne, et seul le Garde "
        "nomme une carte.",
        ("RULINGS §5",),
    ),
    (
        "guard.effect",
        "Guard: choose another player and name a card other than the Guard; if that player holds it, they are out "
        "of the round.",
        "Garde : choisissez un autre joueur et nommez une carte autre que le Garde ; si ce joueur a cette carte en "
        "main, il quitte la manche.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "guard.guess",
        "The Guard must name a card, and it may not name the Guard.",
        "Le Garde doit nommer une carte, et jamais le Garde lui-même.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "guard.guess-in-ruleset",
        "The Guard must name a card of the ruleset being played (option guard_unknown=refuse, the default); with "
        "guard_unknown=miss such a guess is legal and always misses.",
        "Le Garde doit nommer une carte du jeu de règles de la partie (option guard_unknown=refuse, par défaut) ; "
        "avec guard_unknown=miss, nommer une autre carte est permis, mais "
        "n'élimine jamais personne.",
        ("RULINGS §5", "RULINGS §11"),
    ),
    (
        "priest.effect",
        "Priest: choose another player and look at their hand; only you learn the card.",
        "Prêtre : choisissez un autre joueur et regardez discrètement sa main ; vous seul découvrez sa carte.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "baron.effect",
        "Baron: choose another player and compare hands secretly; the lower value is out of the round. A tie does "
        "nothing; both players learn the other's card.",
        "Baron : choisissez un autre joueur et comparez discrètement vos mains ; celui qui a la carte de plus faible "
        "valeur quitte la manche. En cas d'égalité, personne ne la quitte ; chacun des deux découvre la carte de "
        "l'autre.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "handmaid.effect",
        "Handmaid: until the start of your next turn (or the end of the round), other players' effects cannot "
        "choose you.",
        "Servante : jusqu'au début de votre prochain tour (ou jusqu'à la fin de la manche), les effets des autres "
        "joueurs ne peuvent pas vous cibler.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "prince.effect",
        "Prince: choose any player, yourself included; they discard their hand face up without its effect and "
        "draw a new card, the face-down set-aside card if the deck is empty.",
        "Prince : choisissez n'importe quel joueur, y compris vous-même ; il défausse sa main face visible sans en "
        "résoudre l'effet et pioche une nouvelle carte (la carte mise de côté face cachée si la pioche est vide).",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "prince.princess",
        "A Princess discarded because of a Prince eliminates its holder, who draws nothing.",
        "Défausser la Princesse à cause d'un Prince élimine le joueur qui la détenait ; il ne pioche pas de nouvelle "
        "carte.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "chancellor.effect",
        "Chancellor: draw min(2, cards in deck) cards, keep one card of your hand and put the others on the "
        "bottom of the deck in the order you choose; with an empty deck it has no effect.",
        "Chancelier : piochez 2 cartes (1 seule s'il n'en reste qu'une), gardez une des cartes de votre main et "
        "placez les autres sous la pioche dans l'ordre de votre choix ; si la pioche est vide, il n'a pas d'effet.",
        ("RULINGS §5", S2019_FR, S2019_EN, S2019_WEB),
    ),
    (
        "chancellor.return",
        "The Chancellor's second decision keeps exactly one card of the hand and returns all the others, in order.",
        "Lors de la seconde décision du Chancelier, le joueur garde exactement une carte de sa main et replace "
        "toutes les autres sous la pioche, dans l'ordre qu'il indique.",
        ("RULINGS §5",),
    ),
    (
        "chancellor.pending",
        "After a Chancellor draws, its player must decide what to keep and return before anything else happens.",
        "Une fois les cartes du Chancelier piochées, le joueur qui l'a joué doit choisir la carte qu'il garde et "
        "celles qu'il replace avant toute autre action.",
        ("RULINGS §5", "RULINGS §6"),
    ),
    (
        "king.effect",
        "King: choose another player and trade hands with them; both learn the card they receive.",
        "Roi : choisissez un autre joueur et échangez votre main contre la sienne ; chacun découvre la carte qu'il "
        "reçoit.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "countess.forced",
        "You must play the Countess if your other card is the King or a Prince (even if the Prince would have to "
        "target you); you may play it anyway. The rule does not apply to what a Chancellor keeps.",
        "Vous devez jouer la Comtesse si votre autre carte est le Roi ou un Prince (même si le Prince devait vous "
        "cibler) ; vous pouvez la jouer quand même. La règle ne s'applique pas à la carte gardée par un Chancelier.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "princess.eliminated",
        "Whoever plays or discards the Princess, for any reason, is out of the round. Playing it is legal.",
        "Quiconque joue ou défausse la Princesse, pour quelque raison que ce soit, quitte la manche. Il est permis "
        "de la jouer.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "spy.effect",
        "Spy: no effect when played or discarded.",
        "Espionne : aucun effet lorsqu'elle est jouée ou défaussée.",
        ("RULINGS §5", S2019_FR, S2019_EN),
    ),
    (
        "out.discard",
        "A player who is out of the round discards their hand face up without resolving it and is skipped until "
        "the round ends.",
        "Un joueur qui quitte la manche défausse sa main face visible sans en résoudre l'effet et passe son tour "
        "jusqu'à la fin de la manche.",
        ("RULINGS §4", S2019_FR, S2019_EN),
    ),
    (
        "round.last-standing",
        "The round ends at once when only one player remains in it; that player wins the round.",
        "La manche s'achève immédiatement lorsqu'il ne reste qu'un joueur en lice ; il la remporte.",
        ("RULINGS §6", S2019_FR, S2019_EN),
    ),
    (
        "round.deck-out",
        "After a turn (including its Chancellor decision) that leaves the deck empty, the players still in the "
        "round reveal their hands and the highest value wins.",
        "Après un tour (décision du Chancelier comprise) qui vide la pioche, les joueurs encore en lice révèlent "
        "leur main et celui qui détient la carte de plus forte valeur l'emporte.",
        ("RULINGS §6", S2019_FR, S2019_EN),
    ),
    (
        "round.tie",
        "A showdown tie: in 2019, 2019-classic and princess-princess every tied player wins; in 2012 the tied "
        "player with the highest total of cards in front of them wins, and a tie that remains is settled by the "
        "tie_2012 option (nobody wins, or all win).",
        "Égalité lors de la révélation des mains : en « 2019 », « 2019-classic » et « princess-princess », tous les "
        "joueurs à égalité remportent la manche ; en « 2012 », celui d'entre eux dont les cartes posées devant lui "
        "ont la plus forte valeur totale l'emporte, et une égalité qui persiste se règle selon l'option tie_2012 "
        "(personne ne gagne, ou tous gagnent).",
        ("RULINGS §1", "RULINGS §11", S2012, S2019_EN),
    ),
    (
        "favor.round",
        "Each round winner gains one favor.",
        "Chaque vainqueur de la manche gagne un pion Faveur.",
        ("RULINGS §6", S2019_FR, S2019_EN),
    ),
    (
        "favor.spy",
        "If exactly one player still in the round played or discarded a Spy this round, they gain one favor, once, "
        "in addition to any round win. Players out of the round neither gain nor block it.",
        "Si un seul joueur encore en lice a joué ou défaussé une Espionne pendant la manche, il gagne un pion "
        "Faveur, une seule fois, en plus de celui d'une éventuelle victoire de la manche. Les joueurs éliminés ne le "
        "gagnent pas et n'empêchent personne de le gagner.",
        ("RULINGS §7", S2019_FR, S2019_EN, S2019_WEB),
    ),
    (
        "favor.amira-sadie",
        "Princess Princess: if two different players still in the round each played or discarded a value-6 card "
        "this round, each gains one favor.",
        "Princesse Princesse : si deux joueurs différents encore en lice ont chacun joué ou défaussé une carte de "
        "valeur 6 pendant la manche, chacun gagne un pion Faveur.",
        ("RULINGS §8", SPP),
    ),
    (
        "game.end",
        "After a round's favors are given, every player at or above the ruleset's threshold wins the game; several "
        "can win at once.",
        "Une fois les pions Faveur de la manche attribués, tout joueur qui en a au moins autant que le demande le "
        "jeu de règles remporte la partie ; plusieurs joueurs peuvent la remporter simultanément.",
        ("RULINGS §9", S2019_FR, S2019_EN, S2012),
    ),
    (
        "game.over",
        "Once the game has ended nobody plays any more.",
        "Une fois la partie terminée, plus personne ne joue.",
        ("RULINGS §9",),
    ),
)
