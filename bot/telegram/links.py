"""Deep links: ``t.me/<bot>?start=<payload>`` opens the private chat with the bot and sends
``/start <payload>`` (a lobby's invite, the way back to a game)."""


def start_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"
