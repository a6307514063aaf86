"""``ascend-doctor parse FILE|-``: structured result of a pasted npu-smi / version / collect_env output."""
from __future__ import annotations

NAME = "parse"
HELP = "parse a pasted tool output (npu-smi info, -t board, version.info, collect_env, ...) into structured data"


def add_arguments(parser) -> None:
    from ...parsers import KINDS
    from ...render.registry import formats
    from ..options import add_format

    parser.add_argument("file", help="file to read, or - for standard input")
    parser.add_argument("--kind", choices=("auto",) + KINDS, default="auto",
                        help="what the text is (default: auto, find every known block in it)")
    add_format(parser, choices=formats("parse"), default="json")


def _read(path: str) -> str:
    import os
    import sys

    from ...services.errors import InputError

    limit = 64 * 1024 * 1024          # the same cap for a file and for standard input
    try:
        if path == "-":
            if sys.stdin is None:
                raise InputError("standard input is closed: nothing to parse")
            data = (sys.stdin.buffer.read(limit) if hasattr(sys.stdin, "buffer")
                    else sys.stdin.read(limit).encode())
        else:
            if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
                raise InputError(f"{path} is not a regular file")      # a FIFO nobody writes would block
            with open(path, "rb") as f:
                data = f.read(limit)
    except FileNotFoundError as exc:
        raise InputError(f"file not found: {path}") from exc
    except IsADirectoryError as exc:
        raise InputError(f"{path} is a directory") from exc
    except PermissionError as exc:
        raise InputError(f"permission denied: {path}") from exc
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return data.decode("utf-8", errors="replace")


def run(args) -> int:
    from ...parsers import find_blocks, parse
    from ..output import emit

    text = _read(args.file)
    if args.kind == "auto":
        blocks = [b.to_dict() for b in find_blocks(text)]
    else:
        r = parse(text, args.kind)
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        blocks = [{"kind": r.kind, "start_line": 1, "end_line": max(lines, 1),
                   **{k: v for k, v in r.to_dict().items() if k != "kind"}}]
    emit("parse", {"file": args.file, "blocks": blocks}, args.format)
    return 0 if any(b["status"] == "ok" for b in blocks) else 1
