# tysyacha: the bot with its SQLite database on a volume at /data.
#   docker build -t tysyacha .
#   docker run -d -e TELEGRAM_BOT_TOKEN=123:abc -v tysyacha-data:/data tysyacha
# Every setting of bot/settings.py is an environment variable (TELEGRAM_BOT_TOKEN, WEBHOOK_URL,
# LOG_LEVEL, ...); see the README's "Running with Docker".
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/tysyacha.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY storage storage
COPY bot bot
COPY locales locales
# Editable, so that the bot finds locales/ beside its package in /app.
RUN pip install --no-cache-dir -e . \
    && useradd --create-home --uid 10001 tysyacha \
    && mkdir -p /data \
    && chown tysyacha /data

USER tysyacha
VOLUME ["/data"]
# Only used in webhook mode (WEBHOOK_URL set): where PTB's webhook server listens.
EXPOSE 8443

# The bot writes /data/tysyacha.db.heartbeat every 30 s while it gets answers from Telegram
# and its database; `python -m bot.health` fails when it is older than 120 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]

# SIGTERM (docker stop) makes the bot stop polling and flush its queued messages.
CMD ["python", "-m", "bot"]
