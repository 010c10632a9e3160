"""Long answers: nothing the bot says is cut at Discord's 2,000 characters.

A message's text may hold at most :data:`MESSAGE_LIMIT` characters. :func:`fit` keeps a reply that fits as
it is; a longer one shows its first lines, up to a line boundary, says how much more there is, and carries
the whole text as an attached file (``answer.txt``), which Discord shows inline and anyone can open or
download. Buttons, menus, pings and pictures stay on the message. The transport calls it for every reply, so
every command's answer benefits, present and future.
"""

from __future__ import annotations

from dataclasses import replace

from bot.commands.layer import Attachment, Reply

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's text."""

HEAD_LIMIT = 1700
"""The most of a long answer shown in the message itself, leaving room for the note that says so."""

FILE_NAME = "answer.txt"


def fit(reply: Reply, limit: int = MESSAGE_LIMIT) -> Reply:
    """``reply`` unchanged if its text fits in one message; else its first lines, a note, and the whole text
    attached as :data:`FILE_NAME`."""
    if len(reply.text) <= limit:
        return reply
    lines = reply.text.splitlines()
    head: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > min(HEAD_LIMIT, limit - 300):
            break
        head.append(line)
        used += len(line) + 1
    if not head:  # one enormous line: cut it at a space
        cut = reply.text.rfind(" ", 0, HEAD_LIMIT)
        head = [reply.text[: cut if cut > 0 else HEAD_LIMIT] + " …"]
    rest = len(lines) - len(head)
    note = (
        f"… and {rest} more line(s): the whole answer ({len(lines)} lines) is in the attached `{FILE_NAME}`."
        if rest
        else f"… the whole answer is in the attached `{FILE_NAME}`."
    )
    whole = Attachment(FILE_NAME, reply.text.encode("utf-8"))
    return replace(reply, text="\n".join([*head, note]), files=(*reply.files, whole))
