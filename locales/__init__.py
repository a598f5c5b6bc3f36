"""The Fluent translations (``<lang>/*.ftl``), installed with the bot as package data so that
`bot.i18n` reads them through ``importlib.resources`` wherever the bot is installed."""
