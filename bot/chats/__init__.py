"""Who the bot talks to: `people` stores users and chats on every update and knows their
languages and names; `life` follows a group as Telegram changes it under the bot (upgraded
to a supergroup, the bot removed); `topics` tells which forum topic of a group an update
happened in."""
