"""A host whose npu-smi cannot work never passes the check (reliability review D2): DCMI -8005 on bare
metal, nothing or garbage printed with exit 0. Reproduced by replaying a healthy host's snapshot with
the one recorded answer changed."""
from __future__ import annotations

import json

import pytest

NPU_SMI_INFO = '["run","/usr/local/bin/npu-smi","info"]'


@pytest.fixture()
def host_snapshot(cli, tmp_path):
    path = tmp_path / "host.json"
    r = cli("snapshot", "--sim", "healthy-a2-host", "-o", str(path))
    assert r.code == 0, r.err

    def with_npu_smi(**answer) -> str:
        data = json.loads(path.read_text())
        call = data["calls"][NPU_SMI_INFO]["value"]
        call.update(answer)
        out = tmp_path / "edited.json"
        out.write_text(json.dumps(data))
        return str(out)
    return with_npu_smi


@pytest.mark.parametrize("answer", [
    dict(stdout="", stderr="dcmi module initialize failed. ret is -8005\n", exit_code=255),
    dict(stdout="dcmi module initialize failed. ret is -8005\n", stderr="", exit_code=0),
    dict(stdout="\x7f garbage \x01\n", stderr="", exit_code=0),
    dict(stdout="", stderr="", exit_code=0),
], ids=["dcmi-8005-exit-255", "dcmi-8005-exit-0", "garbage-exit-0", "empty-exit-0"])
def test_broken_npu_smi_on_a_host_fails_the_check(cli, host_snapshot, answer):
    r = cli("check", "--replay", host_snapshot(**answer), "--format", "json")
    assert r.code == 1, r.out[-2000:]
    d = json.loads(r.out)
    by_id = {x["rule"]: x for x in d["results"]}
    assert by_id["AD-DRV-005"]["status"] == "FAIL"
    assert by_id["AD-DRV-004"]["status"] != "PASS"


def test_healthy_host_snapshot_still_passes(cli, host_snapshot):
    r = cli("check", "--replay", host_snapshot(), "--format", "json")
    d = json.loads(r.out)
    assert {x["rule"]: x["status"] for x in d["results"]}["AD-DRV-005"] == "PASS"


ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b[5;31m\x9b2J[bold]npu-smi failed\n"


@pytest.mark.parametrize("argv", [("check",), ("check", "--format", "markdown"), ("facts",),
                                  ("check", "--format", "json")])
def test_escape_sequences_from_a_snapshot_never_reach_the_terminal(cli, host_snapshot, argv):
    path = host_snapshot(stdout="", stderr=ESCAPES, exit_code=1)
    r = cli(*argv, "--replay", path)
    assert r.code in (0, 1), r.err
    for ch in ("\x1b", "\x07", "\x9b"):
        assert ch not in r.out and ch not in r.err, (argv, repr(r.out[:300]))
    if argv[-1] != "json":
        assert "[bold]npu-smi failed" in r.out
