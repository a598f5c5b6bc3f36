"""The lobby: a group's game gathered in one message (`service`), then started as a match.
Its screens are pure functions in `bot.render.lobby`."""
