"""The web pages: lobby, seat, replay viewer and statistics, with their templates, assets and words."""
