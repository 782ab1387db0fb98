"""The event catalogue, the log format and (later) the event stores."""
