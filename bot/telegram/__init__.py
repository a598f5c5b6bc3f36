"""Delivery to Telegram.

* `outbox` — brings the bot's messages to their newest wanted state within Telegram's
  limits: `queue` (what waits per chat, and what goes first), `pacer` (Telegram's limits,
  also PTB's rate limiter), `courier` (one call, its errors sorted out: 429s waited out,
  network errors retried, lost sends looked for); `ledger` marks the stored messages
  delivered.
* `callbacks` — the callback data of inline buttons: a compact codec of at most 64 bytes.
* `links` — deep links that open the private chat with a ``/start`` payload.
* `uploads` — files (the score sheet picture, the CSV export) sent straight through the API.
* `menu` — the bot's profile, set at every start: commands per scope and language.
"""
