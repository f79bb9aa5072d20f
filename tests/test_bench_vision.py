"""The camera benchmark's command line: a cache pointed one folder too deep is refused before it renders."""
from __future__ import annotations

import argparse

import pytest

from bench import bench_vision


def test_the_cache_is_the_folder_of_renderers_not_one_renderers_folder(tmp_path):
    # bench/out/scenes/<renderer>[-WxH]/<level>-<seed>/truth.json: pointed at <renderer>, every shot would be
    # looked for one level too deep and rendered again (an hour at 1080p), silently
    shot = tmp_path / "scenes" / "ef064536dcc5-1920x1080" / "hard-3000"
    shot.mkdir(parents=True)
    (shot / "truth.json").write_text("{}")
    with pytest.raises(argparse.ArgumentTypeError, match="folder above it"):
        bench_vision._cache(str(shot.parent))
    assert bench_vision._cache(str(tmp_path / "scenes")) == tmp_path / "scenes"
    assert bench_vision._cache(str(tmp_path / "not-yet")) == tmp_path / "not-yet"     # rendered into on first use
    assert bench_vision._cache("") is None
