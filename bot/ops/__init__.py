"""Running the bot: `health` (the heartbeat beside the database and ``python -m
bot.ops.health``, the container's HEALTHCHECK), `endpoint` (``GET /health`` for a reverse
proxy), `cluster` (several processes of one token on one PostgreSQL database: which one
sends) and `logs` (the log format, one line per handled update)."""
