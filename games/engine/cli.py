"""``python -m games.engine replay``: replay a game record and print the result as JSON.

Letting bots play each other, and measuring them in an arena, are tools outside the product
(``python -m tools.engine``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .record import replay_text, unreadable


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="The TAKI rules engine: replay game records.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    rep = commands.add_parser(
        "replay",
        help="replay a taki-record/1 file and print the result as JSON",
        description="Apply the record's actions in order, stop at the first illegal one, and "
        "print {ok, applied, error, state} as JSON. Exit status: 0 all legal, 1 an illegal "
        "action, 2 not a record.",
    )
    rep.add_argument("file", help="the record file, or - for standard input")

    args = parser.parse_args(argv)
    return _replay(args.file)


def _replay(path: str) -> int:
    try:
        text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        result = unreadable(f"cannot read {path}: {exc.strerror}")
    else:
        result = replay_text(text)
    print(json.dumps(result.to_json(), indent=2))
    return result.exit_status
