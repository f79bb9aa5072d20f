"""`tofu-table data check [DIR]`, `data complete KIND`, `data export FILE`, `data import FILE`: check
the owner's Food for Thought data files and say what is still sample, mark a kind complete (its
file then replaces the sample), and carry all of the owner's data in one file."""
from __future__ import annotations

import json
from pathlib import Path

from . import data


def _folder(args) -> Path:
    if args.dir:
        return Path(args.dir)
    if args.data:
        return Path(args.data) / data.OWNER_SUBDIR
    return data.owner_dir()


def check(args) -> int:
    """Print where each kind of data comes from, every problem (file and line), and notes."""
    folder = _folder(args)
    cat = data.load(folder)
    print(f"Food for Thought data: owner folder {folder}" + ("" if folder.is_dir() else " (does not exist yet)"))
    for kind in data.KINDS:
        source = cat.sources[kind]
        label = "SAMPLE (invented)" if source == "sample" else "owner"
        print(f"  {data.SCHEMA[kind]['file']:<20} {len(cat.records[kind]):>3} entries  {label:<18} {cat.paths[kind]}")
    for note in cat.notes:
        print(f"note: {note}")
    for problem in cat.problems:
        print(f"error: {problem}")
    if cat.problems:
        print(f"{len(cat.problems)} problem(s): games refuse to start until they are fixed.")
        return 1
    sample = cat.sample_kinds()
    print("OK" + (f"; still sample data: {', '.join(sample)}" if sample else "; no sample data in use"))
    return 0


def complete(args) -> int:
    """Mark a kind complete (or, with --undo, sample again) and say what new games will use."""
    try:
        kinds = data.mark_complete(args.kind, not args.undo, _folder(args))
    except data.DataError as exc:
        for problem in exc.problems:
            print(f"error: {problem}")
        print(f"{args.kind} not marked complete: fix the above and try again.")
        return 1
    state = "complete: new games use your file" if args.kind in kinds else "not complete: new games use the sample"
    print(f"{args.kind} {state}. Complete kinds: {', '.join(sorted(kinds, key=data.KINDS.index)) or 'none'}.")
    return 0


def export(args) -> int:
    """Write every file of the owner's folder, and which kinds are complete, into one JSON file."""
    try:
        bundle = data.export_all(_folder(args))
    except data.DataError as exc:
        print(f"error: {exc.problems[0]}")
        return 1
    Path(args.file).write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"Exported {len(bundle['files'])} file(s) ({', '.join(bundle['files']) or 'none yet'}) to {args.file}.")
    return 0


def import_(args) -> int:
    """Replace the owner's folder with an export, after checking all of it (nothing is written on a problem)."""
    try:
        bundle = json.loads(Path(args.file).read_text(encoding="utf-8"))
        written = data.import_all(bundle, _folder(args))
    except (OSError, ValueError) as exc:
        problems = exc.problems if isinstance(exc, data.DataError) else [f"{args.file}: cannot read it ({exc})"]
        for problem in problems:
            print(f"error: {problem}")
        print("Nothing was imported: fix the above and try again.")
        return 1
    print(f"Imported {len(written)} file(s) into {_folder(args)}: {', '.join(written) or 'none'}.")
    return 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("data", help="Food for Thought card data: check the owner's data folder")
    sub = p.add_subparsers(dest="data_command", required=True)
    c = sub.add_parser("check", help="check the data files (by file and line) and list what is still sample")
    c.add_argument("dir", nargs="?", help="folder to check (default: food-for-thought/ in the data dir)")
    c.add_argument("--data", help="the table's data dir (as given to `tofu-table serve --data`)")
    c.set_defaults(func=check)
    m = sub.add_parser("complete", help="mark a kind complete: its file replaces the sample in new games")
    m.add_argument("kind", help=f"one of {', '.join(data.KINDS)}")
    m.add_argument("dir", nargs="?", help="the owner's folder (default: food-for-thought/ in the data dir)")
    m.add_argument("--undo", action="store_true", help="use the sample for this kind again")
    m.add_argument("--data", help="the table's data dir (as given to `tofu-table serve --data`)")
    m.set_defaults(func=complete)
    for name, func, what in (("export", export, "write all of the owner's data into one file"),
                             ("import", import_, "replace the owner's data with an exported file (checked first)")):
        x = sub.add_parser(name, help=what)
        x.add_argument("file", help="the one JSON file")
        x.add_argument("dir", nargs="?", help="the owner's folder (default: food-for-thought/ in the data dir)")
        x.add_argument("--data", help="the table's data dir (as given to `tofu-table serve --data`)")
        x.set_defaults(func=func)
