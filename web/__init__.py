"""The web pages: lobby, seat, replay viewer, statistics and rulings, with their templates, assets and words."""
