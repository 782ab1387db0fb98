"""The referee: the one authority between players and the event store. It knows no HTTP."""
