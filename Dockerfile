# Umpire: a Discord bot that referees hex-and-counter wargames.
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY scenarios ./scenarios
RUN pip install --no-cache-dir .

# Games are kept in SQLite on this volume.
VOLUME ["/data"]
WORKDIR /data
ENTRYPOINT ["umpire"]
CMD ["--help"]
