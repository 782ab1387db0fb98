"""Every problem code the referee answers with: its title in both languages (`TITLES`), and the HTTP status of each
refusal of the referee (`STATUSES`, the one table from the referee's refusal codes to statuses). Read-only data,
apart from `api.problems`, which builds and renders the problems."""

from __future__ import annotations

from collections.abc import Mapping

from loveletter.core.lang import Text
from loveletter.referee.refusals import OUT_OF_TURN

TITLES: Mapping[str, Text] = {
    "invalid_request": Text("Invalid request", "Requête invalide"),
    "invalid_header": Text("Invalid header", "En-tête invalide"),
    "http_error": Text("Request refused", "Requête refusée"),
    "token_required": Text("Seat token required", "Jeton de siège requis"),
    "token_rejected": Text("Wrong token", "Jeton refusé"),
    "game_not_over": Text("Game in progress", "Partie en cours"),
    "admin_required": Text("Admin token required", "Jeton d'administration requis"),
    "game_not_found": Text("No such game", "Partie introuvable"),
    "ruleset_not_found": Text("No such ruleset", "Jeu de règles introuvable"),
    "not_found": Text("Not Found", "Introuvable"),
    "method_not_allowed": Text("Method Not Allowed", "Méthode non autorisée"),
    "conflict": Text("Conflict", "Conflit"),
    "stale_version": Text("Version mismatch", "Version non concordante"),
    "too_large": Text("Request too large", "Requête trop volumineuse"),
    "unsupported_media_type": Text("Unsupported media type", "Type de contenu non pris en charge"),
    "unknown_player": Text("Unknown player", "Joueur inconnu"),
    "unknown_action_code": Text("Unknown action code", "Code d'action inconnu"),
    "idempotency_key_reused": Text("Idempotency key reused", "Clé d'idempotence déjà utilisée"),
    "unreadable_log": Text("Unreadable log", "Journal illisible"),
    "at_out_of_range": Text("No such point", "Point hors du journal"),
    "internal_error": Text("Internal error", "Erreur interne"),
    "rate_limited": Text("Too many requests", "Trop de requêtes"),
    "overloaded": Text("Referee busy", "Arbitre surchargé"),
    "simulation_running": Text("A simulation is already running", "Une simulation est déjà en cours"),
    "too_many_streams": Text("Too many event streams", "Trop de flux d'événements"),
    "store_unavailable": Text("Storage unavailable", "Stockage indisponible"),
    "invite_used": Text("Invite already used", "Invitation déjà utilisée"),
    "invite_rejected": Text("Wrong invite", "Invitation refusée"),
    "invite_required": Text("Invite required", "Invitation requise"),
    "game_full": Text("Game full", "Partie complète"),
    "not_organiser": Text("Organiser only", "Réservé à l'organisateur"),
    "invalid_cursor": Text("Invalid cursor", "Curseur invalide"),
    # accounts (docs/accounts.md)
    "account_name_refused": Text("Name refused", "Nom refusé"),
    "account_name_taken": Text("Name taken", "Nom déjà pris"),
    "account_not_found": Text("No such account", "Compte introuvable"),
    "account_key_rejected": Text("Wrong account key", "Clé de compte refusée"),
    "rated_refused": Text("Not a rated game", "Partie classée refusée"),
    "challenge_not_found": Text("No such challenge", "Défi introuvable"),
    "challenge_refused": Text("Challenge refused", "Défi refusé"),
    "challenge_closed": Text("Challenge closed", "Défi clos"),
    # seeks (docs/accounts.md)
    "seek_not_found": Text("No such seek", "Recherche introuvable"),
    "seek_closed": Text("Seek closed", "Recherche close"),
    "seeks_rate_limited": Text("Too many seeks", "Trop de recherches"),
    # rate limits on accounts and challenges (docs/accounts.md)
    "accounts_rate_limited": Text("Too many accounts", "Trop de comptes"),
    "challenges_rate_limited": Text("Too many challenges", "Trop de défis"),
}
"""The title of every problem the referee answers by itself, by its `code`."""

STATUSES: Mapping[str, int] = {
    "game_not_found": 404,
    "token_required": 401,
    "invite_required": 401,
    "token_rejected": 403,
    "invite_rejected": 403,
    "admin_required": 403,
    "not_organiser": 403,
    "stale_version": 412,
    "conflict": 409,
    "invite_used": 409,
    "game_full": 409,
    "game_not_over": 409,
    "game_not_over/read": 403,
    "at_out_of_range": 422,
    "not_found": 404,
    "simulation_running": 409,
    "overloaded": 503,
    "unknown_player": 422,
    "unknown_action_code": 422,
    "idempotency_key_reused": 422,
    # accounts (docs/accounts.md)
    "account_name_refused": 422,
    "account_name_taken": 409,
    "account_not_found": 404,
    "account_key_rejected": 403,
    "rated_refused": 422,
    "challenge_not_found": 404,
    "challenge_refused": 422,
    "challenge_closed": 409,
    # seeks (docs/accounts.md)
    "seek_not_found": 404,
    "seek_closed": 409,
    # rate limits on accounts and challenges (docs/accounts.md)
    "accounts_rate_limited": 429,
    "challenges_rate_limited": 429,
    **{f"rule:{code}": 409 for code in OUT_OF_TURN},
    "rule:*": 422,
}
"""The HTTP status of each refusal of the referee, by its code; a rules refusal (whose code is the rules' own, and
may be one of these) by `rule:` and its code, or `rule:*` for any other rule; a refusal to show what a game hides
until its end (`about["read"]`) by its code and `/read` (forbidden to see it yet, where a command that needs the
end, such as a rematch, conflicts with the game as it is)."""
