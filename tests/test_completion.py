"""``ascend-doctor completion``: scripts made from the parser that a shell accepts and that complete."""
from __future__ import annotations

import shutil
import subprocess

import pytest


@pytest.mark.skipif(not shutil.which("bash"), reason="bash is not installed")
def test_bash_completion_completes_commands_options_and_profiles(cli, tmp_path):
    r = cli("completion", "bash")
    assert r.code == 0
    script = tmp_path / "c.bash"
    script.write_text(r.out)
    probe = f"""source {script}
COMP_WORDS=(ascend-doctor dia); COMP_CWORD=1; _ascend_doctor; echo "${{COMPREPLY[@]}}"
COMP_WORDS=(ascend-doctor check --jun); COMP_CWORD=2; _ascend_doctor; echo "${{COMPREPLY[@]}}"
COMP_WORDS=(ascend-doctor check --sim healthy-a2); COMP_CWORD=3; _ascend_doctor; echo "${{COMPREPLY[@]}}"
"""
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30).stdout.splitlines()
    assert out[0] == "diagnose"
    assert out[1] == "--junit"
    assert "healthy-a2-host" in out[2].split()


def test_fish_and_zsh_scripts_name_every_command(cli):
    fish = cli("completion", "fish").out
    for cmd in ("check", "diagnose", "explain", "snapshot"):
        assert cmd in fish.splitlines()[1]
    assert cli("completion", "zsh").out.startswith("autoload -U +X bashcompinit")
    assert cli("completion", "tcsh").code == 2
