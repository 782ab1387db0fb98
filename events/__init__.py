"""What is written down: events to and from JSON (`codec`), the JSONL game log, its schema and its signatures
(`log`, `log_schema`, `signing`), and the append-only event stores, SQLite and PostgreSQL, behind one contract
(`store`, `sqlite_store`, `postgres_store`; `pgcluster` starts a throwaway PostgreSQL for tests and benchmarks),
their shared SQL (`statements`, and `accounts` for the accounts' tables), and the schema versions both stores upgrade
an older database through at start-up (`migrations`). The event types themselves are the rules core's catalogue
(`core.catalogue`)."""
