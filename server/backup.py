"""``tofu-table backup FILE`` and ``tofu-table restore FILE``: the whole data folder in one file.

The backup is a gzipped tar of the data folder: the journal, the game history,
the players, remembered devices, the tag registry, the owner's card data, the
camera calibration, the host token and ``config.toml``.  Each SQLite file is
copied with SQLite's online backup API, so a backup taken while the table runs
holds a consistent copy of every database (each as of one moment); the other
files are copied as they are.  ``backup-manifest.json`` in the archive lists
what it holds.

Restore checks the archive (names inside the folder, every database whole),
moves the current data folder aside to ``<folder>.before-restore-<time>`` and
puts the backup's in its place.  Stop the table before restoring; start it
again afterwards and it refolds the restored journal.
"""
from __future__ import annotations

import io
import json
import shutil
import sqlite3
import sys
import tarfile
import tempfile
import time
from pathlib import Path, PurePosixPath

from .context import default_data_dir

MANIFEST = "backup-manifest.json"
#: Files SQLite keeps beside a database while it is open; the online backup replaces them.
_SIDE_FILES = ("-wal", "-shm", "-journal")


class BackupError(RuntimeError):
    """The backup or restore could not be done; the message says why and what to do."""


def _is_database(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(16) == b"SQLite format 3\x00"


def backup(data_dir: Path, out: Path) -> dict:
    """Write ``data_dir`` to the archive ``out``; returns the manifest."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise BackupError(f"There is no data folder at {data_dir}; give the right one with --data.")
    files, databases = [], []
    with tempfile.TemporaryDirectory() as scratch, tarfile.open(out, "w:gz") as tar:
        for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
            rel = path.relative_to(data_dir).as_posix()
            if path.name.endswith(_SIDE_FILES) or path.resolve() == Path(out).resolve():
                continue
            if _is_database(path):
                copy = Path(scratch) / f"{len(databases)}.sqlite"
                src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
                dst = sqlite3.connect(copy)
                try:
                    src.backup(dst)   # a consistent copy even while the table writes to it
                finally:
                    dst.close()
                    src.close()
                tar.add(copy, arcname=rel)
                databases.append(rel)
            else:
                tar.add(path, arcname=rel)
            files.append(rel)
        manifest = {"made_at": time.time(), "data_dir": str(data_dir), "files": files, "databases": databases}
        blob = json.dumps(manifest, indent=1).encode()
        info = tarfile.TarInfo(MANIFEST)
        info.size, info.mtime, info.mode = len(blob), int(time.time()), 0o600
        tar.addfile(info, io.BytesIO(blob))
    Path(out).chmod(0o600)   # it holds the host token
    return manifest


def _check_members(tar: tarfile.TarFile) -> dict:
    names = tar.getnames()
    if MANIFEST not in names:
        raise BackupError("This file is not a Tofu Table backup (it has no backup-manifest.json); "
                          "make one with `tofu-table backup FILE`.")
    for member in tar.getmembers():
        path = PurePosixPath(member.name)
        if path.is_absolute() or ".." in path.parts or not (member.isfile() or member.isdir()):
            raise BackupError(f"The backup holds {member.name!r}, which is not a file inside the data "
                              "folder; it was not restored.")
    return json.load(tar.extractfile(MANIFEST))


def restore(archive: Path, data_dir: Path) -> Path | None:
    """Put the backup ``archive`` in place of ``data_dir``; returns where the old folder went
    (None if there was none)."""
    data_dir = Path(data_dir)
    try:
        tar = tarfile.open(archive, "r:gz")
    except (OSError, tarfile.TarError) as exc:
        raise BackupError(f"Cannot read the backup {archive}: {exc}.") from exc
    with tar:
        manifest = _check_members(tar)
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        incoming = Path(tempfile.mkdtemp(prefix=".restore-", dir=data_dir.parent))
        try:
            tar.extractall(incoming, filter="data")
            (incoming / MANIFEST).unlink()
            for rel in manifest["databases"]:
                db = sqlite3.connect(incoming / rel)
                try:
                    ok = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                except sqlite3.DatabaseError:
                    ok = False
                finally:
                    db.close()
                if not ok:
                    raise BackupError(f"{rel} in the backup is damaged; nothing was restored.")
        except BaseException:
            shutil.rmtree(incoming, ignore_errors=True)
            raise
    aside = None
    if data_dir.exists():
        aside = data_dir.with_name(f"{data_dir.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
        data_dir.rename(aside)
    incoming.rename(data_dir)
    data_dir.chmod(0o700)
    return aside


def _backup_command(args) -> int:
    try:
        manifest = backup(Path(args.data), Path(args.file))
    except (BackupError, OSError, sqlite3.Error) as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {len(manifest['files'])} files ({len(manifest['databases'])} databases) "
          f"from {args.data} to {args.file}.")
    return 0


def _restore_command(args) -> int:
    try:
        aside = restore(Path(args.file), Path(args.data))
    except (BackupError, OSError) as exc:
        print(f"Restore failed: {exc}", file=sys.stderr)
        return 1
    print(f"Restored {args.file} into {args.data}."
          + (f" The folder that was there is now {aside}." if aside else "")
          + " Start the table again to carry on from the restored journal.")
    return 0


def add_parser(sub) -> None:
    """Add ``backup`` and ``restore`` to the ``tofu-table`` command."""
    p = sub.add_parser("backup", help="copy the whole data folder into one file (safe while the table runs)")
    p.add_argument("file", help="the backup to write (a .tar.gz)")
    p.add_argument("--data", default=str(default_data_dir()), help="data folder to back up")
    p.set_defaults(func=_backup_command)
    p = sub.add_parser("restore", help="put a backup in place of the data folder (stop the table first)")
    p.add_argument("file", help="a backup made by `tofu-table backup`")
    p.add_argument("--data", default=str(default_data_dir()), help="data folder to restore into")
    p.set_defaults(func=_restore_command)
