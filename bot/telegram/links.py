"""Deep links: ``t.me/<bot>?start=<payload>`` opens the private chat with the bot and sends
``/start <payload>`` (a lobby's invite, the way back to a game)."""


def start_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


def invite_link(bot_username: str, lobby_id: int) -> str:
    """The link that seats whoever opens it at the lobby (members of its group only)."""
    return start_link(bot_username, f"join-{lobby_id}")
