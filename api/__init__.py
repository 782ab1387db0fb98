"""The outside world: the command line (and later the HTTP referee)."""
