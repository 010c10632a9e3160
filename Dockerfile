# Umpire: a Discord bot that referees hex-and-counter wargames.
# docker build -t umpire .
# docker run -d -e DISCORD_TOKEN=... -v umpire-data:/data umpire
# Several processes on PostgreSQL: compose.yaml (docs/hosting.md, Scaling out).
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY scenarios ./scenarios
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin umpire \
    && mkdir -p /data && chown umpire /data

# Every game lives in this SQLite file (or set UMPIRE_DB=postgresql://...); keep /data on a volume.
ENV UMPIRE_DB=/data/umpire.sqlite3
# The bot writes the time here every 30 s while connected to Discord; the health check reads it.
ENV UMPIRE_HEALTH_FILE=/tmp/umpire-heartbeat
# Two malloc arenas instead of one per worker thread: pictures are drawn in threads, and per-thread arenas
# hold on to their freed memory (docs/performance.md, "Memory").
ENV MALLOC_ARENA_MAX=2
VOLUME ["/data"]
WORKDIR /data
# Not root: the bot needs nothing but its volume.
USER umpire
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["umpire", "health"]
ENTRYPOINT ["umpire"]
CMD ["run"]
