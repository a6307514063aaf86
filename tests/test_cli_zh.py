"""With --lang zh (or a Chinese locale) the CLI's own words are Chinese: every command's text output and
its common errors carry no English chrome outside data (ids, commands, paths, quoted log text, knowledge
text that has no Chinese); see tests/i18n.py."""
from __future__ import annotations

import pytest

from ascend_doctor.diagnose.cli.main import main

from .i18n import english_chrome

#: English that is data in these outputs: simulated machines' messages, knowledge entries' English-only
#: names (codes), fact keys and values, command words
DATA_WORDS = {"the", "not", "and", "for", "from", "error", "failed", "found", "none", "file", "set", "run",
              "export", "root", "arch", "cann", "environment", "Ascend", "device", "used", "info", "module",
              "initialize", "code", "internal", "type", "version", "warning", "critical", "socket", "timeout",
              "connection", "call", "fusion", "compile", "operator", "with", "one", "only", "all", "any", "unset",
              "mode", "host", "line", "time", "table", "name", "text", "path", "rules", "rule", "check", "group",
              "match", "out", "kernel", "firmware", "driver", "container", "stack", "memory", "process", "too",
              "search"}

#: English of the condition language and the probes that these outputs quote (compatibility rows, fleet
#: notes, fact details: machine-speak not yet written in both languages), per command
#: ("Compatibility": npu-smi -t board's field, which a fix quotes)
QUOTED = {"check": {"rows"}, "diagnose": {"Compatibility"},
          "fleet": {"rows", "node", "has", "value", "net", "health"}, "explain": {"does"},
          "facts": {"does", "status", "show", "Chip", "Name"}, "kb": {"devices", "health"}}

#: (``check --format oneline`` stays English: it is the line a scheduler stores, like JSON)
COMMANDS = [
    ["check", "--sim", "container-missing-device-nodes", "--fail-on", "never"],
    ["check", "--sim", "torch-npu-mismatch", "--fail-on", "never", "--format", "markdown"],
    ["diagnose", "--no-env", "--text", "call aclnnMoeDistributeDispatchV4 failed, error code is 561000"],
    ["diagnose", "--no-env", "--format", "markdown", "--text", "dcmi module initialize failed. ret is -8005"],
    ["explain", "EI0006"],
    ["explain", "container-device-nodes-missing"],
    ["explain", "AD-CONT-001"],
    ["search", "权重加载 卡住"],
    ["rules"],
    ["facts", "--sim", "healthy-a2-host"],
    ["fleet", "--sim", "rolling-upgrade-64", "-v"],
    ["kb", "stats"],
]

ERRORS = [["explain", "nosuch"], ["diagnose", "/nonexistent/plog"], ["check", "--sim", "nosuch"], ["chek"],
          ["search"], ["diagnose", "--text", " "]]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:3]))
def test_command_output_has_no_english_chrome(argv, capsys):
    main(["--lang", "zh", *argv])
    out, err = capsys.readouterr()
    left = english_chrome(out + err, allowed=DATA_WORDS | QUOTED.get(argv[0], set()))
    assert not left, "English chrome in `ascend-doctor --lang zh " + " ".join(argv) + "`:\n" + "\n".join(left)


@pytest.mark.parametrize("argv", ERRORS, ids=lambda a: " ".join(a[:2]))
def test_common_errors_are_chinese(argv, capsys, monkeypatch):
    monkeypatch.setenv("ASCEND_DOCTOR_LANG", "zh")            # the locale, no --lang
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "错误" in err or "未知" in err or "缺少" in err, err
    left = english_chrome(err, allowed=DATA_WORDS | {"search"})       # ascend-doctor search: a command
    assert not left, "\n".join(left)
