# tysyacha: the bot with its SQLite database on a volume at /data.
#   docker build -t tysyacha .
#   docker run -d -e TELEGRAM_BOT_TOKEN=123:abc -v tysyacha-data:/data tysyacha
# Every setting of bot/settings.py is an environment variable (TELEGRAM_BOT_TOKEN, WEBHOOK_URL,
# LOG_LEVEL, ...); see the README's "Running with Docker".

# The project as a wheel, built from the sources only (.dockerignore keeps the rest out).
FROM python:3.11-slim AS wheel
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine engine
COPY storage storage
COPY bot bot
COPY locales locales
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/tysyacha.db \
    WEBHOOK_LISTEN=0.0.0.0

# The dependencies in a layer of their own, pinned by constraints.txt: it is rebuilt only when
# pyproject.toml or constraints.txt change, not on every edit of the code.
COPY pyproject.toml constraints.txt /tmp/deps/
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/deps/pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/deps/requirements.txt \
    && pip install --no-cache-dir -c /tmp/deps/constraints.txt -r /tmp/deps/requirements.txt \
    && rm -rf /tmp/deps

# The project itself, installed (not editable) from its wheel: the image runs what a wheel
# holds, locales included, and no source tree lies on the path.
COPY --from=wheel /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --create-home --uid 10001 tysyacha \
    && mkdir -p /data \
    && chown tysyacha /data

USER tysyacha
WORKDIR /home/tysyacha
VOLUME ["/data"]
# Only used in webhook mode (WEBHOOK_URL set): where PTB's webhook server listens.
EXPOSE 8443

# The bot writes /data/tysyacha.db.heartbeat every 30 s while it gets answers from Telegram
# and its database; `python -m bot.ops.health` fails when it is older than 120 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.ops.health"]

# SIGTERM (docker stop) makes the bot stop taking updates and deliver its queued messages.
CMD ["python", "-m", "bot"]
