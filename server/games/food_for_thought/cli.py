"""`tofu-table data check [DIR]`: check Food for Thought data files and say what is still sample."""
from __future__ import annotations

from pathlib import Path

from . import data


def check(args) -> int:
    """Print where each kind of data comes from, every problem (file and line), and notes."""
    if args.dir:
        folder = Path(args.dir)
    elif args.data:
        folder = Path(args.data) / data.OWNER_SUBDIR
    else:
        folder = data.owner_dir()
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


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("data", help="Food for Thought card data: check the owner's data folder")
    sub = p.add_subparsers(dest="data_command", required=True)
    c = sub.add_parser("check", help="check the data files (by file and line) and list what is still sample")
    c.add_argument("dir", nargs="?", help="folder to check (default: food-for-thought/ in the data dir)")
    c.add_argument("--data", help="the table's data dir (as given to `tofu-table serve --data`)")
    c.set_defaults(func=check)
