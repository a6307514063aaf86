"""``diagnose`` reads what users really hand it (reliability review D4, D12 and the newcomer test):
a folder with one corrupt rotated .gz, a FIFO / process substitution, UTF-16 and GBK logs, a very deep
directory tree."""
from __future__ import annotations

import json
import os
import threading

#: a line that is a likely cause by itself (LLaMA-Factory issue 3839): read, it makes the exit code 1
LINE = ("EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. "
        "Reason: Maybe the last training process is running.\n")


def _ids(out: str) -> list[str]:
    return [f["id"] for f in json.loads(out)["findings"]]


def test_one_corrupt_gz_in_a_folder_loses_nothing_else(cli, tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    (d / "worker.log").write_text(LINE)
    (d / "worker.log.1.gz").write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff\xff\xff")
    r = cli("diagnose", "--no-env", "--format", "json", str(d))
    assert r.code == 1, r.err
    d_json = json.loads(r.out)
    assert d_json["findings"], r.out
    assert any("worker.log.1.gz" in n.get("source", "") or "worker.log.1.gz" in json.dumps(n)
               for n in d_json.get("notes", [])), d_json.get("notes")


def test_a_fifo_is_read_like_a_file(cli, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "w") as fh:
            fh.write(LINE)
    t = threading.Thread(target=writer)
    t.start()
    r = cli("diagnose", "--no-env", "--format", "json", str(fifo))
    t.join(timeout=10)
    assert r.code == 1, r.err
    assert _ids(r.out)


def test_utf16_and_gbk_logs_are_transcoded(cli, tmp_path):
    text = "推理服务启动失败\n" + LINE
    for name, data in (("utf16.log", text.encode("utf-16")), ("gbk.log", text.encode("gbk"))):
        p = tmp_path / name
        p.write_bytes(data)
        r = cli("diagnose", "--no-env", "--format", "json", str(p))
        assert r.code == 1, (name, r.err)
        d = json.loads(r.out)
        lines = [e["text"] for f in d["findings"] for e in f["evidence"]]
        assert any("EJ0001" in t for t in lines), (name, lines)


def test_a_very_deep_directory_is_walked(cli, tmp_path):
    d = tmp_path / "deep"
    cur = str(d)
    os.mkdir(cur)
    for _ in range(1200):          # deeper than Python's recursion limit (os.makedirs itself recurses)
        cur += "/d"
        os.mkdir(cur)
    cur = __import__("pathlib").Path(cur)
    (cur / "a.log").write_text(LINE)
    try:
        r = cli("diagnose", "--no-env", "--format", "json", str(d))
        assert r.code == 1, r.err
        assert _ids(r.out)
    finally:
        # remove it bottom-up: pytest's own clean-up of old temp dirs recurses and would fail on it
        os.remove(cur / "a.log")
        path = str(cur)
        while path != str(d.parent):
            os.rmdir(path)
            path = os.path.dirname(path)


def test_control_characters_in_logs_and_file_names_never_reach_the_terminal(cli, tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    p = d / "x\x1b[2J.log"
    p.write_text("\x07\x1b]0;pwned\x07 \u009b2J " + LINE)
    for fmt in ("text", "markdown", "json"):
        r = cli("diagnose", "--no-env", "--format", fmt, str(d))
        assert r.code == 1, r.err
        for ch in ("\x1b", "\x07", "\u009b"):
            assert ch not in r.out and ch not in r.err, (fmt, repr(r.out[:400]))


def test_a_folder_is_summarised_and_unlikely_causes_are_folded(cli, tmp_path):
    d = tmp_path / "plog"
    d.mkdir()
    for i in range(12):
        (d / f"plog-{i}.log").write_text(LINE)
    r = cli("diagnose", "--no-env", "--top", "5", str(d))
    head = r.out.split("\n\n")[0].replace("\n", "")
    assert f"12 files under {d}" in head and "plog-3.log" not in head
    r = cli("diagnose", "--no-env", "--top", "5", "--text", "vllm serve hangs, HCCL timeout after 30 minutes")
    if "Less likely:" in r.out:
        folded = r.out.split("Less likely:", 1)[1]
        assert "Root cause" not in folded and "Temporary fix" not in folded
