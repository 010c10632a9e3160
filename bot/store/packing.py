"""How the store packs what it keeps: snapshots and events zlib-compressed (with a game's dictionary), a
finished game's log packed again with an archive dictionary, the chain's hashes as 32-byte blobs.

Pure functions over bytes and JSON (the archive's two steps read and write through a connection they are
given); :mod:`bot.store.sqlite` uses them, and so do the migrations (:mod:`bot.store.migrations`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.sql import Connection

SNAPSHOT_ZLIB_LEVEL = 6
"""zlib level of the stored snapshots and events (docs/performance.md: level 6 against 1 and 9, size and time)."""

ARCHIVE_SAMPLES = 200
"""The archive dictionary samples about this many actions spread over the whole game (a game's late actions
differ from its first ones, which make the live dictionary)."""

ARCHIVE_DICTIONARY_BYTES = 32_000
"""The archive dictionary's size: at most zlib's window (32 kB)."""

ARCHIVED = 0x01
"""The first byte of a value packed by the archive (raw deflate, the game's archive dictionary). A zlib stream
starts with 0x78, and plain JSON is stored as text, so the three forms never mix up."""


PLAIN_JSON = (b"[", b"{", b'"')
"""The first bytes of plain JSON kept as bytes (the server store keeps every packed column as ``BYTEA``): never
the first byte of a zlib stream (0x78) or of an archived value (:data:`ARCHIVED`)."""


def pack_snapshot(state_json: Any) -> bytes:
    """A state snapshot as stored: compact JSON, zlib-compressed."""
    return zlib.compress(json.dumps(state_json, separators=(",", ":")).encode(), SNAPSHOT_ZLIB_LEVEL)


def unpack_snapshot(stored: bytes | str) -> Any:
    """The state JSON of a stored snapshot (plain JSON from before version 3, as text or, copied to the server
    store, bytes; or compressed)."""
    if isinstance(stored, str) or stored[:1] in PLAIN_JSON:
        return json.loads(stored)
    return json.loads(zlib.decompress(stored))


def pack_events(events: Sequence[Mapping[str, Any]], dictionary: bytes | None) -> bytes:
    """An action's events as stored: compact JSON, zlib-compressed (with the game's dictionary, if it has one)."""
    text = json.dumps([dict(e) for e in events], separators=(",", ":")).encode()
    packer = zlib.compressobj(SNAPSHOT_ZLIB_LEVEL, zdict=dictionary) if dictionary else zlib.compressobj(6)
    return packer.compress(text) + packer.flush()


def unpack_events(stored: bytes | str, dictionary: bytes | None, archive: bytes | None = None) -> Any:
    """An action's events (or, once archived, its arguments) from the store: plain JSON, as text or bytes (before
    version 3, an action's arguments, or where packing gained nothing), compressed (with the game's dictionary, if
    flagged), or archived (packed with the game's archive dictionary)."""
    if isinstance(stored, str) or stored[:1] in PLAIN_JSON:
        return json.loads(stored)
    if stored[:1] == bytes([ARCHIVED]):
        unpacker = zlib.decompressobj(-15, zdict=archive) if archive else zlib.decompressobj(-15)
        try:
            return json.loads(unpacker.decompress(stored[1:]) + unpacker.flush())
        except zlib.error as error:
            raise ValueError(f"archived values that do not decompress ({error})") from None
    with_dictionary = len(stored) > 1 and stored[1] & 0x20  # zlib's FDICT flag (RFC 1950)
    unpacker = zlib.decompressobj(zdict=dictionary) if with_dictionary and dictionary else zlib.decompressobj()
    try:
        return json.loads(unpacker.decompress(stored) + unpacker.flush())
    except zlib.error as error:  # bytes written by hand: unreadable, like text that is not JSON
        raise ValueError(f"compressed events that do not decompress ({error})") from None


def _hash_blob(stored: Any) -> Any:
    """A chain hash as stored since version 4: 32 bytes for its 64 hex digits; anything else (a row edited by
    hand) is kept as it is, so that verification still reports it."""
    if isinstance(stored, str) and len(stored) == 64:
        with contextlib.suppress(ValueError):
            return bytes.fromhex(stored)
    return stored


def _hash_text(stored: Any) -> str | None:
    """A stored chain hash as the hex text players see (a value edited by hand, as it is)."""
    return stored.hex() if isinstance(stored, bytes) else stored


@dataclass(frozen=True)
class _Archive:
    """What archiving a game's log writes (:func:`_archived`)."""

    game: int
    before: bytes | None
    """The game's archive dictionary when its rows were read (compressed; ``None`` before its first end)."""
    made: bytes | None
    """The dictionary made from these rows (compressed), when the game had none."""
    rows: list[tuple[Any, ...]]
    """Each row packed again: (arguments, events, number, arguments and events as they were read)."""


async def _log_to_archive(db: Connection, game_id: int) -> _Archive | None:
    """Read a game's log through ``db`` and pack it again, in a worker thread (:func:`_archived`)."""
    found = list(
        await db.execute_fetchall("SELECT log_dictionary, archive_dictionary FROM games WHERE id = ?", (game_id,))
    )
    rows = list(
        await db.execute_fetchall("SELECT seq, args, events FROM actions WHERE game = ? ORDER BY seq", (game_id,))
    )
    if not found or not rows:
        return None
    log, packed = found[0][0], found[0][1]
    return await asyncio.to_thread(_archived, game_id, [tuple(r) for r in rows], log, packed)


async def _write_archive(db: Connection, archive: _Archive) -> None:
    """Write an archive in the write transaction ``db``: only rows still as they were read, and nothing if the
    game's archive dictionary changed meanwhile (another archive of it came first)."""
    found = list(await db.execute_fetchall("SELECT archive_dictionary FROM games WHERE id = ?", (archive.game,)))
    if not found or found[0][0] != archive.before:
        return
    if archive.made is not None:
        await db.execute("UPDATE games SET archive_dictionary = ? WHERE id = ?", (archive.made, archive.game))
    await db.executemany(
        "UPDATE actions SET args = ?, events = ? WHERE game = ? AND seq = ? "
        "AND args IS NOT DISTINCT FROM ? AND events IS NOT DISTINCT FROM ?",
        [(args, events, archive.game, seq, *read) for args, events, seq, *read in archive.rows],
    )


def _archived(game_id: int, rows: Sequence[tuple[Any, ...]], log: bytes | None, packed: bytes | None) -> _Archive:
    """A game's log (number, arguments, events as stored) packed again with the game's archive dictionary,
    made from a sample of the whole log when the game has none. The dictionary is made once, at the game's
    first end, and never changed (a reader may hold it), so a game reopened by a correction and ended again
    archives only its newer rows. A row that does not decode (edited by hand) is left as it is, for
    verification to report."""
    archive = zlib.decompress(packed) if packed is not None else None
    plain: list[tuple[int, Any, Any, bytes, bytes]] = []
    for seq, args, events in rows:
        if isinstance(events, bytes) and events[:1] == bytes([ARCHIVED]) and archive is not None:
            continue
        try:
            texts = [_compact(unpack_events(value, log, archive)) for value in (args, events)]
        except ValueError:
            continue
        plain.append((int(seq), args, events, texts[0], texts[1]))
    made = None
    if archive is None:
        step = max(1, len(plain) // ARCHIVE_SAMPLES)
        archive = b"".join(a + e for *_, a, e in plain[::step])[-ARCHIVE_DICTIONARY_BYTES:]
        made = zlib.compress(archive, 9)
    packs = [
        (_archive_pack(a, archive), _archive_pack(e, archive), seq, args, events) for seq, args, events, a, e in plain
    ]
    return _Archive(game_id, packed, made, packs)


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _archive_pack(text: bytes, archive: bytes) -> bytes | str:
    """A JSON value as the archive stores it: packed, or plain text when packing would not make it shorter."""
    packer = zlib.compressobj(SNAPSHOT_ZLIB_LEVEL, zlib.DEFLATED, -15, zdict=archive)
    packed = bytes([ARCHIVED]) + packer.compress(text) + packer.flush()
    return packed if len(packed) < len(text) else text.decode()
