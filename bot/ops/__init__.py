"""Running the bot: `health` (the heartbeat beside the database and ``python -m
bot.ops.health``, the container's HEALTHCHECK) and `logs` (the log format, one line per
handled update)."""
