"""The real System and the probes against fake npu-smi programs put first on PATH, unreadable and
missing files, non-UTF-8 bytes. Each gives the right fact status and the run ends within its time-out."""
from __future__ import annotations

import os
import stat
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ascend_doctor.diagnose.probes import collect
from ascend_doctor.diagnose.probes.npu_smi import probe as npu_smi_probe
from ascend_doctor.diagnose.probes.base import ProbeContext, read_text
from ascend_doctor.diagnose.system import RealSystem

S = Path(__file__).parent / "fixtures" / "samples"
TIMEOUT = 1.0


def fake_npu_smi(tmp_path: Path, body: str) -> dict[str, str]:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "npu-smi"
    exe.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    exe.chmod(0o755)
    return {"PATH": f"{bindir}:/usr/bin:/bin"}


def npu_smi_serving(tmp_path: Path, info: str) -> dict[str, str]:
    """A fake npu-smi that prints ``info`` for 'npu-smi info' and fails every other query."""
    (tmp_path / "out.txt").write_text(info)
    return fake_npu_smi(tmp_path, f"""
        import sys
        if sys.argv[1:] == ["info"]:
            sys.stdout.write(open({str(tmp_path / 'out.txt')!r}).read())
        else:
            sys.stderr.write("unsupported\\n"); sys.exit(2)
    """)


def run_npu_probe(env: dict[str, str]):
    system = RealSystem(env=env)
    start = time.monotonic()
    facts = {f.key: f for f in npu_smi_probe(ProbeContext(system=system, timeout=TIMEOUT))}
    return facts, time.monotonic() - start


def test_hanging_npu_smi_is_a_timeout_fact_and_its_process_group_is_killed(tmp_path):
    pidfile = tmp_path / "child.pid"
    env = fake_npu_smi(tmp_path, f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pidfile)!r}, "w").write(str(child.pid))
        time.sleep(60)
    """)
    facts, took = run_npu_probe(env)
    assert facts["npu_smi.info"].status == "timeout"
    assert "no answer within 1 s" in facts["npu_smi.info"].detail
    assert facts["npu.devices"].status == "timeout" and facts["npu.count"].status == "timeout"
    assert took < TIMEOUT + 3
    child = int(pidfile.read_text())
    for _ in range(50):                       # the grandchild went down with the group
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        try:
            if Path(f"/proc/{child}/stat").read_text().split()[2] == "Z":
                break
        except OSError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the hung npu-smi's child survived the time-out")


def test_a_detached_grandchild_holding_the_output_does_not_turn_an_answer_into_a_timeout():
    """Reliability review: a command that answered and exited, leaving a setsid'ed process that still holds
    its stdout, was reported as a time-out after the whole budget. Its answer is complete when it exits."""
    import shutil
    import signal

    if not shutil.which("setsid"):
        pytest.skip("no setsid on this machine")
    r = RealSystem().run(["sh", "-c", "setsid sleep 60 & echo $!; echo 'full table'"], timeout=30)
    try:
        assert not r.timed_out and r.exit_code == 0, r.error
        assert r.stdout.splitlines()[1] == "full table"
    finally:
        try:
            os.kill(int(r.stdout.split()[0]), signal.SIGKILL)
        except (ValueError, IndexError, ProcessLookupError):
            pass


def test_crashing_npu_smi_is_an_error(tmp_path):
    env = fake_npu_smi(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    facts, _ = run_npu_probe(env)
    f = facts["npu_smi.info"]
    assert f.status == "error" and "signal" in f.detail


def test_garbage_output_is_unparsed(tmp_path):
    env = fake_npu_smi(tmp_path, "print('Segmentation fault? no: random words | and | bars')\n")
    facts, _ = run_npu_probe(env)
    assert facts["npu_smi.info"].status == "unparsed"
    assert "no npu-smi info table" in facts["npu_smi.info"].detail
    assert facts["npu.devices"].status == "unparsed"


def test_dcmi_failure_is_an_error_with_the_code(tmp_path):
    env = fake_npu_smi(tmp_path, """
        import sys
        sys.stderr.write("DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\\n")
        sys.stdout.write("dcmi module initialize failed. ret is -8005\\n")
        sys.exit(255)
    """)
    facts, _ = run_npu_probe(env)
    assert facts["npu_smi.info"].status == "error" and "-8005" in facts["npu_smi.info"].detail
    assert facts["npu_smi.dcmi_error"].ok and facts["npu_smi.dcmi_error"].value == "-8005"


def test_truncated_table_still_gives_devices(tmp_path):
    text = (S / "npu-smi-info/a3-910_93-2card-4chip-25.2.0-one-process.txt").read_text()
    cut = "\n".join(text.splitlines()[:10]) + "\n"      # ends after the first row of the second die
    env = npu_smi_serving(tmp_path, cut)
    facts, _ = run_npu_probe(env)
    assert facts["npu_smi.info"].ok and facts["npu_smi.info"].value["truncated"]
    assert len(facts["npu.devices"].value) == 2 and "truncated" in facts["npu.devices"].detail
    # the count is unknown, never the smaller number the cut table shows
    assert facts["npu.count"].status == "unparsed" and "cut" in facts["npu.count"].detail
    assert facts["npu.chip_map"].status == "error"          # -m exited 2
    assert facts["npu.compatibility"].status == "error"


def test_working_fake_npu_smi_gives_every_fact(tmp_path):
    board = (S / "own/npu-smi-board-910-d801.txt").read_text()
    (tmp_path / "info.txt").write_text((S / "npu-smi-info/910b2c-2card-23.0.2.1-with-process-trailing-spaces.txt").read_text())
    (tmp_path / "board.txt").write_text(board.replace("NPU ID                         : 3", "NPU ID                         : 0"))
    (tmp_path / "chip.txt").write_text((S / "npu-smi-query/info-t-board-c0-a2-910b4-chip-type-excerpt.txt").read_text())
    (tmp_path / "m.txt").write_text((S / "npu-smi-query/info-m-910b4-a2-mcu-rows-trailing-spaces.txt").read_text())
    env = fake_npu_smi(tmp_path, f"""
        import sys
        a = sys.argv[1:]
        d = {str(tmp_path)!r}
        if a == ["info"]: print(open(d + "/info.txt").read(), end="")
        elif a == ["info", "-m"]: print(open(d + "/m.txt").read(), end="")
        elif a[:3] == ["info", "-t", "board"] and "-c" in a: print(open(d + "/chip.txt").read(), end="")
        elif a[:3] == ["info", "-t", "board"]: print(open(d + "/board.txt").read(), end="")
        elif a[:3] == ["info", "-t", "health"]: print("Health Status                  : OK")
        else: sys.exit(3)
    """)
    facts, _ = run_npu_probe(env)
    assert facts["npu_smi.path"].value.endswith("/bin/npu-smi")
    assert facts["npu.count"].value == 2 and facts["npu.chip_name"].value == "910B2C"
    assert facts["npu.compatibility"].value == "OK"
    assert [c["logic_id"] for c in facts["npu.chip_map"].value] == [0, None, 1, None]
    assert facts["npu.processes"].value[0]["pid"] == 124528
    assert [h["board_health"] for h in facts["npu.health"].value] == ["OK", "OK"]


def test_missing_npu_smi(tmp_path):
    (tmp_path / "empty").mkdir()
    facts, _ = run_npu_probe({"PATH": str(tmp_path / "empty")})
    if Path("/usr/local/bin/npu-smi").exists() or Path("/usr/local/sbin/npu-smi").exists():
        pytest.skip("this machine has a real npu-smi")
    assert facts["npu_smi.path"].status == "missing" and facts["npu_smi.info"].status == "missing"


def test_npu_smi_that_is_a_directory_means_a_failed_bind_mount(tmp_path):
    (tmp_path / "bin" / "npu-smi").mkdir(parents=True)
    facts, _ = run_npu_probe({"PATH": str(tmp_path / "bin")})
    assert facts["npu_smi.path"].status == "error" and "bind mount" in facts["npu_smi.path"].detail
    assert facts["npu_smi.info"].status == "error"


def test_files_missing_unreadable_and_not_utf8(tmp_path):
    system = RealSystem()
    assert read_text(system, str(tmp_path / "nope"))[1] == "missing"
    bad = tmp_path / "bad.info"
    bad.write_bytes(b"Version=25.2.0\nname=\xff\xfe\n")
    text, status, detail = read_text(system, str(bad))
    assert status == "ok" and "Version=25.2.0" in text and "\ufffd" in text and "UTF-8" in detail
    assert read_text(system, str(tmp_path))[1] == "error"               # a directory
    secret = tmp_path / "secret"
    secret.write_text("x")
    secret.chmod(0)
    try:
        if os.geteuid() == 0:
            pytest.skip("root reads everything")
        assert read_text(system, str(secret))[1] == "denied"
    finally:
        secret.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_command_output_with_invalid_utf8_is_decoded_and_flagged(tmp_path):
    r = RealSystem().run([sys.executable, "-c", "import sys; sys.stdout.buffer.write(b'ok \\xff\\n')"], timeout=5)
    assert r.ok and r.invalid_utf8 and r.stdout == "ok \ufffd\n"


def test_never_a_shell():
    r = RealSystem().run(["echo $HOME; false"], timeout=5)
    assert r.not_found and r.exit_code is None


def test_whole_run_with_hanging_npu_smi_ends_within_its_time_out(tmp_path):
    env = fake_npu_smi(tmp_path, "import time\ntime.sleep(60)\n")
    env["HOME"] = str(tmp_path)
    start = time.monotonic()
    fs = collect(RealSystem(env=env), timeout=TIMEOUT)
    took = time.monotonic() - start
    assert fs.get("npu_smi.info").status == "timeout"
    assert fs.get("python.version").ok                     # other probes went on
    assert took < TIMEOUT + 4
    assert fs.get("npu_smi.info").duration_ms >= TIMEOUT * 1000 * 0.9


def test_python_probe_never_imports_from_the_current_directory(tmp_path, monkeypatch):
    """Security: a platform.py / json.py where the user runs ascend-doctor (often as root) is never run."""
    from ascend_doctor.diagnose.probes.python_stack import probe as python_probe

    marker = tmp_path / "PWNED"
    for name in ("platform", "json", "re", "os", "importlib"):
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}:"}     # a trailing ':' means the current directory
    facts = {f.key: f for f in python_probe(ProbeContext(system=RealSystem(env=env), python=sys.executable))}
    assert not marker.exists(), marker.read_text()
    assert facts["python.version"].status == "ok"


@pytest.mark.parametrize("ms_dist, ms_name, ms_version", [("mindspore", "mindspore", "2.3.1"),
                                                         ("mindspore_ascend", "mindspore-ascend", "1.8.1")])
def test_python_probe_still_sees_packages_reached_through_pythonpath(tmp_path, ms_dist, ms_name, ms_version):
    """... MindSpore among them (AD-PY-015 checks it against the installed CANN on the machine too), also as the
    mindspore-ascend distribution MindSpore 1.x shipped its Ascend build as."""
    from ascend_doctor.diagnose.probes.python_stack import probe as python_probe

    site = tmp_path / "extra"
    for dist, name, version in (("torch_npu", "torch-npu", "2.7.1"), (ms_dist, ms_name, ms_version)):
        (site / f"{dist}-{version}.dist-info").mkdir(parents=True)
        (site / f"{dist}-{version}.dist-info" / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    env = {**os.environ, "PYTHONPATH": str(site)}
    facts = {f.key: f for f in python_probe(ProbeContext(system=RealSystem(env=env), python=sys.executable))}
    assert facts["pkg.torch_npu"].value == "2.7.1" and facts["pkg.mindspore"].value == ms_version


def test_a_failing_interpreter_is_named_without_the_whole_probe_script(tmp_path):
    from ascend_doctor.diagnose.probes.python_stack import probe as python_probe

    facts = python_probe(ProbeContext(system=RealSystem(), python="/bin/false"))
    assert all(f.status == "error" for f in facts)
    assert all("\n" not in f.detail and len(f.detail) < 400 for f in facts), facts[0].detail


def test_table_cut_on_a_row_boundary_gives_no_npu_count(tmp_path):
    """Reliability review: 'head -n 12' of an 8-NPU table gave 2 NPUs and every rule passed."""
    text = (S / "npu-smi-info/910b2c-2card-23.0.2.1-with-process-trailing-spaces.txt").read_text()
    lines = text.splitlines()
    cut = "\n".join(lines[:12]) + "\n"            # 'head -n 12': ends on the border after NPU 1
    assert "Process id" not in cut
    env = npu_smi_serving(tmp_path, cut)
    facts, _ = run_npu_probe(env)
    assert facts["npu_smi.info"].value["truncated"]
    assert facts["npu.count"].status == "unparsed"


def test_endless_output_is_capped_while_it_is_read(tmp_path):
    from ascend_doctor.diagnose.system import real

    env = fake_npu_smi(tmp_path, """
        import sys
        while True:
            sys.stdout.write("x" * 65536)
    """)
    r = RealSystem(env=env).run(["npu-smi", "info"], timeout=1.0)
    assert r.timed_out
    assert len(r.stdout) <= real._MAX_OUTPUT


def test_nan_timeout_leaves_no_child(tmp_path):
    pidfile = tmp_path / "child.pid"
    env = fake_npu_smi(tmp_path, f"""
        import os, time
        open({str(pidfile)!r}, "w").write(str(os.getpid()))
        time.sleep(60)
    """)
    with pytest.raises(ValueError):
        RealSystem(env=env).run(["npu-smi", "info"], timeout=float("nan"))
    time.sleep(0.3)
    if pidfile.exists():
        pid = int(pidfile.read_text())
        with pytest.raises(ProcessLookupError):
            for _ in range(20):
                os.kill(pid, 0)
                time.sleep(0.1)


@pytest.mark.parametrize("sig, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_stopping_ascend_doctor_kills_the_hung_npu_smi_at_once(tmp_path, sig, code):
    """A CI cancel (SIGTERM) or ctrl+c (SIGINT) stops at once, and the hung npu-smi with it."""
    import signal
    import subprocess

    pidfile = tmp_path / "child.pid"
    env = fake_npu_smi(tmp_path, f"""
        import os, time
        open({str(pidfile)!r}, "w").write(str(os.getpid()))
        time.sleep(60)
    """)
    env = {**os.environ, **env, "PATH": env["PATH"] + ":" + os.environ.get("PATH", "")}
    env.pop("PYTHONPATH", None)
    # as a user's shell starts it: a test run started as a background job without job control (``cmd &`` in
    # a script, some CI runners) has SIGINT ignored, the child would inherit that, and ascend-doctor rightly
    # leaves an ignored signal ignored (nohup)
    proc = subprocess.Popen([sys.executable, "-m", "ascend_doctor", "check", "--timeout", "30"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(200):
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("npu-smi never started")
    proc.send_signal(getattr(signal, sig))
    assert proc.wait(timeout=10) == code
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the hung npu-smi outlived ascend-doctor")


def test_hanging_per_npu_queries_share_one_budget(tmp_path):
    text = (S / "npu-smi-info/910b2c-2card-23.0.2.1-with-process-trailing-spaces.txt").read_text()
    (tmp_path / "out.txt").write_text(text)
    env = fake_npu_smi(tmp_path, f"""
        import sys, time
        if sys.argv[1:] == ["info"]:
            sys.stdout.write(open({str(tmp_path / 'out.txt')!r}).read())
        else:
            time.sleep(30)
    """)
    facts, took = run_npu_probe(env)
    assert took < 3 * TIMEOUT + 2, took
    assert facts["npu.health"].status == "timeout"
    assert facts["npu.usages"].status == "timeout"


def test_a_huge_error_line_is_quoted_short(tmp_path):
    """Reliability review: one 9 MB line with exit 1 took 83 s and printed 42 MB."""
    env = fake_npu_smi(tmp_path, """
        import sys
        sys.stdout.write("E" * (9 * 1024 * 1024) + "\\n"); sys.exit(1)
    """)
    start = time.monotonic()
    facts, _ = run_npu_probe(env)
    assert time.monotonic() - start < 10
    assert facts["npu_smi.info"].status == "error" and len(facts["npu_smi.info"].detail) < 600


def test_once_stopping_no_command_starts(tmp_path, monkeypatch):
    """After ctrl+c or SIGTERM killed the running commands, a probe thread still at work must not start the
    next npu-smi (the interpreter would wait for it at exit: a flaky 'stops at once')."""
    from ascend_doctor.diagnose.system import real

    marker = tmp_path / "ran"
    env = fake_npu_smi(tmp_path, f"""
        open({str(marker)!r}, "w").write("ran")
    """)
    monkeypatch.setattr(real, "_STOPPING", False)
    real.terminate_children()
    r = RealSystem(env=env).run(["npu-smi", "info"], timeout=5)
    assert not r.ok and "stopping" in (r.error or "")
    assert not marker.exists()
