"""Recorded games judged and told again with the same decide/evolve: replay and audit of logs, transcripts of games
played elsewhere, rulings and disputes, positions as people count them, and narratives in English and French."""
