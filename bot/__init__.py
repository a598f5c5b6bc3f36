"""The python-telegram-bot application, one folder per concern; arrows point down the list.

* `app` (built from `settings`, run by ``python -m bot``) and `services` (every service
  wired once at start-up) sit at the top, with `i18n` (the Fluent translations).
* `handlers/` — Telegram updates only: commands, button presses, membership changes, errors;
  each hands its update to a service.
* `lobby/` — a group's game gathered in one message, then started as a match.
* `match/` — running matches: the match service (presses, computers, timers, /kick and
  /back, /stop, resuming), the match in memory, the stored match text, start-up recovery,
  and the screens a change shows.
* `records/` — what played matches leave: results, statistics, ratings, the score sheet, and
  the one announcement of a match's result.
* `render/` — every screen as a pure function of data: the table, the hands, the results,
  the lobby.
* `chats/` — who the bot talks to (users and chats, languages, names) and a group's life
  (upgraded to a supergroup, the bot removed).
* `telegram/` — delivery to Telegram: the outbox and its pacer, the callback codec, file
  uploads, the bot's profile (menu), the ledger of delivered stored messages.
* `ops/` — running it: the health heartbeat and check, the log lines.

The bot uses `storage` and `engine`; nothing imports the bot (``tests/test_layering.py``).
"""
