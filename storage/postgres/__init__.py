"""The PostgreSQL backend of the storage: the same repositories on a shared server.

Chosen by the setting ``DATABASE_URL`` (``postgresql://...``); SQLite stays the default.
Modules: `schema` (the migrations, numbered as SQLite's), `migrations` (applying them under an
advisory lock), `sql` (placeholders and error mapping), `database` (`PgDatabase`: the pool,
the transactions and their locks (`storage.locks`) behind the calls of `storage.database.Database`).
"""
