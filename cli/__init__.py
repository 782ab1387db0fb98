"""The `loveletter` command line: a client of the rules, the logs, the play library and the referee."""
