"""The System calls the support bundle reads logs with: ``lstat`` (links not followed, with the time) and
``read_tail`` (the newest bytes of a regular file, never through a link, never blocking on a FIFO)."""
from __future__ import annotations

import errno
import os
import time

import pytest

from ascend_doctor.diagnose.system import RealSystem, RecordingSystem, ReplaySystem, SimulatedSystem


def test_real_lstat_does_not_follow_a_link_and_has_the_time(tmp_path):
    f = tmp_path / "a.log"
    f.write_text("x" * 10)
    os.utime(f, (1_700_000_000, 1_700_000_000))
    (tmp_path / "l.log").symlink_to(f)
    s = RealSystem()
    assert (s.lstat(str(f)).kind, s.lstat(str(f)).size, s.lstat(str(f)).mtime) == ("file", 10, 1_700_000_000)
    assert s.lstat(str(tmp_path / "l.log")).kind == "link"
    assert s.stat(str(tmp_path / "l.log")).kind == "file"       # stat still follows, as the probes expect


def test_real_read_tail_keeps_the_newest_bytes_and_refuses_links_and_fifos(tmp_path):
    f = tmp_path / "a.log"
    f.write_bytes(b"old line\n" * 1000 + b"newest line\n")
    s = RealSystem()
    assert s.read_tail(str(f), 12) == b"newest line\n"
    assert s.read_tail(str(f), 10 ** 9) == f.read_bytes()
    secret = tmp_path / "shadow"
    secret.write_text("root:secret")
    (tmp_path / "planted.log").symlink_to(secret)
    with pytest.raises(OSError) as exc:
        s.read_tail(str(tmp_path / "planted.log"), 100)
    assert exc.value.errno == errno.ELOOP
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(OSError, match="not a regular file"):
        s.read_tail(str(fifo), 100)
    assert time.monotonic() - start < 2
    with pytest.raises(OSError):                                # a directory is not a log
        s.read_tail(str(tmp_path), 100)


def test_stat_records_no_file_times_so_snapshots_stay_the_same(tmp_path):
    f = tmp_path / "a"
    f.write_text("x")
    assert "mtime" not in RealSystem().stat(str(f)).to_dict()
    assert RealSystem().lstat(str(f)).to_dict()["mtime"] > 0


def test_recording_and_replay_answer_lstat_and_read_tail_alike(tmp_path):
    f = tmp_path / "a.log"
    f.write_text("one\ntwo\n")
    rec = RecordingSystem(RealSystem())
    st, tail = rec.lstat(str(f)), rec.read_tail(str(f), 4)
    rep = ReplaySystem(rec.calls)
    assert rep.lstat(str(f)) == st and rep.read_tail(str(f), 4) == tail == b"two\n"
    with pytest.raises(FileNotFoundError):
        rep.read_tail(str(tmp_path / "never-read.log"), 4)


def test_simulated_lstat_read_tail_and_file_times():
    s = SimulatedSystem("healthy-a2-host")
    st = s.lstat("/etc/os-release")
    assert st.kind == "file" and st.size > 0
    assert s.read_tail("/etc/os-release", 5) == s.read_file("/etc/os-release")[-5:]
    with pytest.raises(FileNotFoundError):
        s.read_tail("/var/log/nothing-here.log", 5)
