"""The whole-table benchmark (issue 20) still works: a few seconds of bench/bench_table.py.

Its figures, and whether the issue's targets are met, are in bench/README.md: timing and memory
targets are measured by the benchmark's full runs, not by this test.
"""
from __future__ import annotations

import json
import os

import pytest

from bench import bench_table
from bench.pi_quota import PI4_CORE_SHARE, _bodies, advance
from tests.support.server import run_server


def _sawtooth(growth_kib_per_min: float) -> list[tuple[float, int]]:
    """Half an hour of samples a second: 3.6 MiB taken and freed every 47 s on top of ``growth``."""
    return [(t, int(100_000 + 3_600 * (t % 47) / 47 + growth_kib_per_min * t / 60)) for t in range(1800)]


@pytest.mark.parametrize("growth", [0.0, 30.0])
def test_memory_growth_is_read_under_the_sawtooth(growth):
    # what a 30-minute run must tell apart: memory that stays taken (growth) from memory freed and taken
    # again within a minute (a sawtooth of a few MiB: the swing a plain slope has to see through)
    samples = _sawtooth(growth)
    assert abs(bench_table.floor_slope(samples) - growth) <= 1.0
    # whole minutes only: a sample after the last one (as the bench's after play) has no floor of its own
    assert len(bench_table.minute_floors(samples)) == 29
    assert bench_table.minute_floors(samples + [(1800, 150_000)]) == bench_table.minute_floors(samples)[:29] + [
        min(((t, k) for t, k in samples if t >= 1740), key=lambda s: s[1])]
    assert bench_table.floor_slope(samples[:300]) is None     # five minutes: too few floors


def test_whole_table_runs_briefly_and_reports_every_figure():
    r = bench_table.run(play_seconds=4, idle_seconds=1, deep_doze_after_s=20)
    assert r["clients"] == 20 and r["reader_taps"] == 8 and r["http_taps"] == 8
    assert r["client_processes"] == 4      # the screens' clients do not decode one after another
    # every card laid on a reader became a tap in the journal, and every tap reached all 20 screens
    assert r["lost"] == {"http": 0, "reader": 0} and r["unseen"] == {"http": 0, "reader": 0}
    for path in ("http", "reader"):
        assert 0 < r[f"{path}_tv_p50_ms"] <= r[f"{path}_all_p99_ms"], r
    assert r["startup_s"] > 0 and r["startup_cpu_s"] > 0
    # the disk's floor under the journal's fsync'ed commit, to read the latencies against
    assert 0 < r["disk_fsync_p50_ms"] <= r["disk_fsync_p99_ms"], r
    assert r["camera_fps"] > 0 and r["play_frames_taken_per_s"] > 0
    # (the watched idle is measured with the camera dozing, 5 frames a second: in the test's one
    # second it may use less than a clock tick, so its CPU is checked while playing below)
    assert r["idle_watched_camera_fps"] > 0
    assert sorted(r["reader_polls"]) == [f"seat-{n}" for n in range(1, 9)]
    assert all(v > 0 for v in r["reader_polls"].values()), r["reader_polls"]
    # each part of the table is charged its own CPU (the server names its threads in the OS)
    assert r["play_cpu"]["readers"] > 0 and r["play_cpu"]["camera"] > 0, r["play_cpu"]
    # and by thread name, to see where a CPU quota goes: the same camera, the readers' buses adding up
    threads = r["play_cpu_threads"]
    assert threads["camera"] == r["play_cpu"]["camera"], threads
    assert abs(sum(v for k, v in threads.items() if k.startswith("readers-")) - r["play_cpu"]["readers"]) <= 0.3, threads
    assert len(r["rss_samples"]) >= 3 and r["idle_rss_mib"] > 0
    # four seconds of play are too few minutes to fit the memory's floor to
    assert r["rss_floor_slope_kib_per_min"] is None and r["rss_floors"] == []
    # the idle memory told apart: the server's own (anonymous) and the libraries' pages mapped from files
    assert r["idle_anon_mib"] > 0 and r["idle_file_mib"] > 0
    assert abs(r["idle_anon_mib"] + r["idle_file_mib"] - r["idle_rss_mib"]) < 8, r
    # the chip emulation's own CPU is told apart, and the Pi's time for the same transfers put back
    for phase in ("idle", "idle_watched", "idle_deep", "idle_watched_deep"):
        e = r[f"{phase}_emulation"]
        assert e["emulation"] > 0 and e["pi_spi"] > 0 and e["transfers_per_s"] > 0, e
        assert abs(e["table"] - (r[f"{phase}_cpu_pct"] - e["emulation"] + e["pi_spi"])) <= 0.15, (r, e)
    # the idle again after the deeper doze (20 s quiet here): the readers poll less often still, and
    # the watching camera takes fewer frames (2 a second, not 5; fps over its last couple of seconds)
    assert r["deep_doze_after_s"] == 20
    assert 0 < r["idle_deep_reader_polls_min"] < r["idle_reader_polls_min"], r
    assert r["idle_deep_emulation"]["transfers_per_s"] < r["idle_emulation"]["transfers_per_s"], r
    assert 0 < r["idle_watched_deep_camera_fps"] < r["idle_watched_camera_fps"], r
    # the idle target is judged on the table after the deeper doze (bench_table's TARGETS)
    assert {key for key, *_ in bench_table.TARGETS} >= {"idle_deep_cpu_pct", "idle_watched_deep_table_cpu_pct"}


def test_a_light_screen_gets_its_rooms_states_and_a_wrong_token_is_refused(tmp_path):
    game = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 3}}}
    with run_server(tmp_path / "data") as srv:
        assert srv.post(game).status_code == 200
        tv, seat = bench_table.LightScreen(srv.url), bench_table.LightScreen(srv.url, "seat-1", srv.seat_token(1))
        try:
            seqs = [srv.post({"tap": {"reader": f"seat-{n}", "card": "test/red"}}).json()["seq"] for n in (1, 2)]
            for screen in (tv, seat):
                assert all(screen.arrival(seq, 10) is not None for seq in seqs)
            with pytest.raises(ConnectionError, match="seat-2 was refused"):
                bench_table.LightScreen(srv.url, "seat-2", srv.seat_token(1))
        finally:
            tv.close()
            seat.close()


def test_pi4_yardstick_is_the_n_body_work_it_claims():
    # the Sun balances the planets' momentum, pairwise gravity keeps the total at zero, and the
    # planets really move (Jupiter goes about 0.8 AU a year at 5.2 AU from the Sun)
    bodies = _bodies()
    jupiter = list(bodies[1][0])
    advance(bodies, 1000)          # ten years
    assert all(abs(sum(b[1][k] * b[2] for b in bodies)) < 1e-12 for k in range(3))
    assert 4.8 < sum(x * x for x in bodies[1][0]) ** 0.5 < 5.6
    assert sum((a - b) ** 2 for a, b in zip(bodies[1][0], jupiter)) ** 0.5 > 2


def test_the_pi4_quota_is_the_same_at_any_load_unless_timed_again(monkeypatch):
    # the yardstick timed in each run gave 0.19-0.23 of a core with the load (bench/README.md): by
    # default the quota is the share measured once on a quiet moment, whatever the machine is doing
    def timed(python=None):
        timed.calls += 1
        return {"pi4_core_share": 0.25, "python": "3.7.16", "here_us_per_step": 7.9, "pi4_us_per_step": 31.652}
    timed.calls = 0
    monkeypatch.setattr(bench_table, "pi4_core_share", timed)
    runs, share = bench_table.quota_runs("both", 2.0)
    assert runs == [("none", None), ("pi4", 2 * PI4_CORE_SHARE)] and share == {"pi4_core_share": PI4_CORE_SHARE}
    assert timed.calls == 0
    assert 0.15 < PI4_CORE_SHARE < 0.25          # a Pi 4 core is a fifth of one here, give or take
    assert bench_table.quota_runs("pi4", 2.0, 0.21)[0] == [("pi4", 0.42)]
    assert bench_table.quota_runs("pi4", 2.0, time_share=True)[0] == [("pi4", 0.5)] and timed.calls == 1
    assert bench_table.quota_runs("0.3", 2.0) == ([("0.3", 0.3)], None)


def test_the_parts_the_table_does_most_often_are_timed():
    f = bench_table.parts(runs=1, frames=5, polls=20)
    assert f["boards"] >= 5 and f["slots"] > 100
    assert f["frame_cpu_ms"] > 0 and 0 < f["empty_poll_emulation_us"] < f["empty_poll_cpu_us"]


def test_every_run_times_the_days_machine_by_the_tables_own_work(monkeypatch, capsys):
    # figures of different days are compared by what the table's own work costs on each day's machine
    # (the quota's n-body yardstick did not follow it: bench/README.md, stop 38); the runs themselves
    # are the test above's, left out here
    monkeypatch.setattr(bench_table, "idle_only", lambda *a, **k: {})
    monkeypatch.setattr(bench_table, "run", lambda *a, **k: {"lost": {"http": 0, "reader": 0}})
    assert bench_table.main(["--quota", "none", "--json"]) == 0
    machine = json.loads(capsys.readouterr().out)["machine"]
    assert machine["frame_cpu_ms"] > 0 and machine["empty_poll_cpu_us"] > 0, machine


def test_a_quota_with_its_own_slice_puts_the_kernels_slice_back():
    # the slice is one setting for the whole machine: a bench run that changes it must leave it as it was
    from bench.pi_quota import CGROUP_ROOT, SLICE_FILE, CpuQuota
    if not (os.access(SLICE_FILE, os.W_OK) and os.access(CGROUP_ROOT, os.W_OK)):
        pytest.skip("needs root and the cgroup v1 cpu controller (as the quota's bench runs do)")
    before = SLICE_FILE.read_text().strip()
    quota = CpuQuota(0.3, name=f"tofu-pi-test-{os.getpid()}", slice_us=1000)
    try:
        assert SLICE_FILE.read_text().strip() == "1000"
        assert (quota.path / "cpu.cfs_quota_us").read_text().strip() == "3000"
    finally:
        quota.remove()
    assert SLICE_FILE.read_text().strip() == before and not quota.path.exists()
