# Umpire: a Discord bot that referees hex-and-counter wargames.
# docker build -t umpire .
# docker run -d -e DISCORD_TOKEN=... -v umpire-data:/data umpire
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY scenarios ./scenarios
RUN pip install --no-cache-dir .

# Every game lives in this SQLite file; keep /data on a volume.
ENV UMPIRE_DB=/data/umpire.sqlite3
# Two malloc arenas instead of one per worker thread: pictures are drawn in threads, and per-thread arenas
# hold on to their freed memory (docs/performance.md, "Memory").
ENV MALLOC_ARENA_MAX=2
VOLUME ["/data"]
WORKDIR /data
ENTRYPOINT ["umpire"]
CMD ["run"]
