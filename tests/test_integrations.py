"""The artefacts for the engines people run (diagnose/integrations/), tested without a cluster: Ansible with a local
inventory of host aliases, the clush recipe through ClusterShell's exec worker, the sbatch script and the health check with a fake srun / scontrol, the collect
script with a fake kubectl, the DaemonSet and the NPD config against the constraints they must meet, the
alert rules against the metrics ascend-doctor writes. A test whose tool is absent is skipped."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

C = ROOT / "diagnose" / "integrations"
AD = str(Path(sys.executable).with_name("ascend-doctor"))


def tool(name: str) -> str | None:
    """A test tool from the test environment (its bin directory first) or PATH."""
    return shutil.which(name, path=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")


def fake_bin(tmp_path: Path, name: str, script: str) -> Path:
    d = tmp_path / "bin"
    d.mkdir(exist_ok=True)
    p = d / name
    p.write_text("#!/bin/bash\n" + script)
    p.chmod(0o755)
    return d


def env_with(bin_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM", "KUBE"))}
    env.update(PATH=f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin", LC_ALL="C.UTF-8", **extra)
    return env


def test_scripts_are_valid_bash():
    for p in [*C.glob("slurm/*"), C / "k8s" / "collect-fleet.sh"]:
        r = subprocess.run(["bash", "-n", str(p)], capture_output=True, text=True)
        assert r.returncode == 0, (p, r.stderr)
        assert os.access(p, os.X_OK), p
    r = subprocess.run(["bash", "-n", str(C / "nhc" / "ascend_doctor.nhc")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr            # sourced by NHC, not executed: no shebang, no x bit


@pytest.mark.skipif(tool("shellcheck") is None, reason="shellcheck not installed")
def test_scripts_pass_shellcheck():
    files = [str(p) for p in [*C.glob("slurm/*"), C / "k8s" / "collect-fleet.sh", C / "nhc" / "ascend_doctor.nhc"]]
    r = subprocess.run([tool("shellcheck"), "-s", "bash", *files], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_sbatch_with_a_fake_srun_snapshots_every_node_and_compares(tmp_path):
    srun = ('for n in ${SLURM_JOB_NODELIST//,/ }; do\n'
            '  while [ "${1#--}" != "$1" ]; do shift; done\n'
            '  SLURMD_NODENAME=$n "$@" &\n'
            'done\nwait\n')
    fake_bin(tmp_path, "srun", srun)
    b = fake_bin(tmp_path, "scontrol", '[ "$1 $2" = "show hostnames" ] && tr , "\\n" <<< "$3"\n')
    fleet = tmp_path / "shared" / "fleet"
    (tmp_path / "shared").mkdir()
    env = env_with(b, SLURM_JOB_NODELIST="gpu01,gpu02,gpu03", SLURM_JOB_ID="42", FLEET_DIR=str(fleet),
                   ASCEND_DOCTOR=AD, ASCEND_DOCTOR_SNAPSHOT_ARGS="--sim healthy-a2-host --timeout 2",
                   ASCEND_DOCTOR_FLEET_ARGS="--no-per-node")
    r = subprocess.run(["bash", str(C / "slurm" / "ascend-doctor-fleet.sbatch")], env=env, capture_output=True,
                       text=True, timeout=300)
    # three copies of one simulated machine share their NPU NIC addresses: the fleet check says so (exit 1)
    assert r.returncode == 1, r.stderr
    assert sorted(os.listdir(fleet)) == ["gpu01.json", "gpu02.json", "gpu03.json"]
    report = json.loads((tmp_path / "shared" / "fleet.json").read_text())
    assert report["fleet"]["expected"] == 3 and report["fleet"]["missing"] == []
    assert next(x for x in report["rules"] if x["rule"] == "AD-FLEET-012")["status"] == "FAIL"
    assert stat.S_IMODE(os.stat(fleet).st_mode) == 0o700


def test_healthcheck_drains_a_broken_node_and_leaves_a_good_one(tmp_path):
    log = tmp_path / "scontrol.log"
    b = fake_bin(tmp_path, "scontrol", f'echo "$@" >> {log}\n')
    for profile, drained in (("healthy-a2-host", False), ("npu-smi-hangs", True)):
        env = env_with(b, SLURMD_NODENAME="gpu07", ASCEND_DOCTOR=AD, ASCEND_DOCTOR_CHECK_ARGS=f"--sim {profile}")
        r = subprocess.run(["bash", str(C / "slurm" / "ascend-doctor-healthcheck.sh")], env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert log.exists() == drained
    line = log.read_text()
    assert line.startswith("update NodeName=gpu07 State=DRAIN Reason=ascend-doctor: FAIL: AD-DRV-004"), line


def _nhc(tmp_path, profile: str, **extra: str) -> subprocess.CompletedProcess:
    """check_ascend_doctor run as NHC runs a check: its file sourced into a shell that has NHC's ``die`` and
    ``log`` (stand-ins that record what NHC would do), then the function called as nhc.conf names it."""
    shell = ('die() { echo "DIE $*"; exit "$1"; }\nlog() { echo "LOG $*"; }\n'
             f'. {C / "nhc" / "ascend_doctor.nhc"}\ncheck_ascend_doctor --sim {profile}\necho "RC $?"\n')
    env = env_with(tmp_path, **{"ASCEND_DOCTOR": AD, "HOSTNAME": "gpu07", **extra})
    return subprocess.run(["bash", "-c", shell], env=env, capture_output=True, text=True, timeout=120)


def test_nhc_check_fails_a_broken_node_and_passes_a_good_one(tmp_path):
    good = _nhc(tmp_path, "healthy-a2-host")
    assert good.stdout.strip() == "RC 0", good.stdout + good.stderr
    bad = _nhc(tmp_path, "npu-smi-hangs")
    assert bad.returncode == 1
    assert bad.stdout.startswith("DIE 1 check_ascend_doctor:  ascend-doctor: FAIL: AD-DRV-004"), bad.stdout


def test_nhc_check_does_not_fail_the_node_when_ascend_doctor_cannot_run(tmp_path):
    r = _nhc(tmp_path, "healthy-a2-host", ASCEND_DOCTOR=str(tmp_path / "missing"))
    assert r.stdout.startswith("LOG check_ascend_doctor:  ascend-doctor could not run on gpu07"), r.stdout
    assert r.stdout.strip().endswith("RC 0")
    # NHC's time-out leaves ascend-doctor 5 s less, never less than 5 s
    slow = fake_bin(tmp_path, "slow-ad", "sleep 30\n") / "slow-ad"
    r = _nhc(tmp_path, "healthy-a2-host", ASCEND_DOCTOR=str(slow), TIMEOUT="6")
    assert "exit 124" in r.stdout and r.stdout.strip().endswith("RC 0"), r.stdout


def test_collect_fleet_with_a_fake_kubectl(tmp_path):
    kubectl = ('if [ "$3" = get ]; then printf "ad-x1 node01\\nad-x2 node02\\nad-x3 node03\\n"; exit 0; fi\n'
               '# -n NS exec POD -- ascend-doctor snapshot --node NODE -o -\n'
               'pod=$4; shift 5\n'
               '[ "$pod" = ad-x3 ] && { echo "error: pod not running" >&2; exit 1; }\n'
               f'exec {AD} "${{@:2}}" --sim healthy-a2-host --timeout 2\n')
    b = fake_bin(tmp_path, "kubectl", kubectl)
    d = tmp_path / "fleet"
    env = env_with(b, ASCEND_DOCTOR=AD)
    r = subprocess.run(["bash", str(C / "k8s" / "collect-fleet.sh"), str(d), "--no-per-node", "--format", "json"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "no snapshot from node03" in r.stderr
    assert sorted(os.listdir(d)) == ["node01.json", "node02.json"]
    assert all(stat.S_IMODE(os.stat(d / f).st_mode) == 0o600 for f in os.listdir(d))
    report = json.loads(r.stdout)
    assert report["fleet"]["missing"] == ["node03"]


def _yaml(path: Path):
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load(path.read_text())


def test_daemonset_mounts_the_driver_read_only_and_requests_no_npu():
    from ascend_doctor.diagnose.probes.host import DRIVER_MOUNTS

    ds = _yaml(C / "k8s" / "ascend-doctor-daemonset.yaml")
    assert ds["kind"] == "DaemonSet" and ds["apiVersion"] == "apps/v1"
    spec = ds["spec"]["template"]["spec"]
    assert spec["hostPID"] is True and spec["hostNetwork"] is True
    [c] = spec["containers"]
    assert c["securityContext"]["privileged"] is True
    host = {v["name"]: v["hostPath"]["path"] for v in spec["volumes"] if "hostPath" in v}
    mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
    assert set(DRIVER_MOUNTS) <= set(mounts), set(DRIVER_MOUNTS) - set(mounts)
    for path, m in mounts.items():
        if m["name"] in host and path != "/textfile":
            assert m.get("readOnly") is True and host[m["name"]] == path, path
    assert "/etc/hccn.conf" in mounts and "/usr/local/Ascend/driver/tools" in mounts
    assert "huawei.com" not in json.dumps(c.get("resources", {}))
    assert ds["spec"]["selector"]["matchLabels"] == ds["spec"]["template"]["metadata"]["labels"]


def test_daemonset_passes_the_kubernetes_schema_offline():
    kv = pytest.importorskip("kubernetes_validate")
    ds = _yaml(C / "k8s" / "ascend-doctor-daemonset.yaml")
    kv.validate(ds, "1.30.0", strict=True)


def test_npd_plugin_config_meets_npd_validation(cli):
    cfg = json.loads((C / "npd" / "ascend-doctor-monitor.json").read_text())
    secs = lambda s: float(s.rstrip("s"))  # noqa: E731
    pc = cfg["pluginConfig"]
    assert cfg["plugin"] == "custom" and secs(pc["timeout"]) >= 60
    conditions = {c["type"] for c in cfg["conditions"]}
    for rule in cfg["rules"]:
        assert secs(rule["timeout"]) <= secs(pc["timeout"])         # NPD refuses a rule timeout above the global
        if rule["type"] == "permanent":
            assert rule["condition"] in conditions                  # a permanent rule needs its default condition
        assert rule["path"].startswith("/")
        r = cli(*rule["args"], "--sim", "torch-npu-mismatch")       # exit 1 = NonOK for NPD; output fits
        assert r.code == 1 and len(r.out.rstrip("\n")) <= pc["max_output_length"] and r.out.count("\n") == 1


def test_alert_rules_use_metrics_ascend_doctor_writes(cli, tmp_path):
    import re

    rules = _yaml(C / "prometheus" / "ascend-doctor-alerts.yml")
    exprs = [r["expr"] for g in rules["groups"] for r in g["rules"]]
    assert all(r["alert"] and r["annotations"]["summary"] for g in rules["groups"] for r in g["rules"])
    written = cli("check", "--sim", "healthy-a2-host", "--format", "prometheus").out
    written += cli("fleet", "--sim", "clock-skew-8", "--format", "prometheus", "--no-per-node").out
    names = set(re.findall(r"^(ascend_doctor_\w+)", written, re.M))
    used = {n for e in exprs for n in re.findall(r"\b(ascend_doctor_\w+)", e)}
    assert used and used <= names, used - names


def test_systemd_units_write_the_textfile():
    import configparser

    svc = configparser.ConfigParser(strict=False, interpolation=None)
    svc.read(C / "systemd" / "ascend-doctor-textfile.service")
    cmd = svc["Service"]["ExecStart"]
    assert "check --format prometheus" in cmd and "-o /var/lib/node_exporter/textfile_collector/" in cmd
    timer = configparser.ConfigParser(strict=False, interpolation=None)
    timer.read(C / "systemd" / "ascend-doctor-textfile.timer")
    assert timer["Timer"]["OnUnitActiveSec"] and timer["Install"]["WantedBy"] == "timers.target"


@pytest.mark.skipif(tool("ansible-playbook") is None, reason="ansible-playbook not installed")
def test_ansible_playbook_against_a_local_inventory(tmp_path):
    inv = tmp_path / "inventory.ini"
    inv.write_text("[ascend]\n" + "".join(
        f"node0{i} ansible_connection=local ansible_python_interpreter={sys.executable}\n" for i in range(1, 5))
        + "[ascend:vars]\nad_snapshot_args='--sim healthy-a2-host --timeout 2'\n"
        + f"[local]\nlocalhost ansible_connection=local ansible_python_interpreter={sys.executable}\n")
    fleet = tmp_path / "fleet"
    exe = tool("ansible-playbook")
    env = env_with(tmp_path, ANSIBLE_LOCAL_TEMP=str(tmp_path / "a-local"), ANSIBLE_REMOTE_TEMP=str(tmp_path / "a-remote"),
                   ANSIBLE_HOME=str(tmp_path / "a-home"), ANSIBLE_NOCOLOR="1", ANSIBLE_HOST_KEY_CHECKING="False",
                   HOME=str(tmp_path))
    r = subprocess.run([exe, "-i", str(inv), str(C / "ansible" / "ascend-doctor-snapshot.yml"), "-f", "4",
                        "-e", f"fleet_dir={fleet}", "-e", f"ascend_doctor={AD}", "-e", "ad_fleet_args=--no-per-node",
                        # the per-host scratch file in this test's own directory (its default is /tmp on each
                        # host): another test run on the machine must not see it or be seen
                        "-e", f"ad_scratch={tmp_path}/scratch-{{{{ inventory_hostname }}}}.json"],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    files = sorted(os.listdir(fleet))
    assert files == [f"node0{i}.json" for i in range(1, 5)]
    assert all(stat.S_IMODE(os.stat(fleet / f).st_mode) == 0o600 for f in files)   # fetch alone gives 0644
    assert not list(tmp_path.glob("scratch-*.json"))          # each host's scratch file was removed
    report = json.loads((tmp_path / "fleet.json").read_text())
    assert report["fleet"]["expected"] == 4 and report["fleet"]["received"] == 4


def test_clush_one_liner_with_the_clustershell_exec_worker(tmp_path):
    """README's clush recipe without a cluster: ClusterShell's exec worker runs the snapshot once per node name
    (%h) on this machine, each file named as `clush --rcopy` names it (ad.json.<node>), then fleet compares."""
    pytest.importorskip("ClusterShell")
    from ClusterShell.Task import task_self
    from ClusterShell.Worker.Exec import ExecWorker

    fleet = tmp_path / "fleet"
    fleet.mkdir()
    task = task_self()
    task.set_default("distant_worker", ExecWorker)           # run per node name here, not over ssh
    task.shell(f"{AD} snapshot --sim healthy-a2-host --timeout 2 --node %h --force -o {fleet}/ad.json.%h",
               nodes="node[01-03]", timeout=300)
    task.resume()
    assert [rc for rc, _nodes in task.iter_retcodes()] == [0], [(rc, list(n)) for rc, n in task.iter_retcodes()]
    for f in fleet.iterdir():
        f.chmod(0o600)
    r = subprocess.run([AD, "fleet", str(fleet), "--format", "json", "--expect-nodes", "node[01-03]"],
                       capture_output=True, text=True, timeout=300)
    report = json.loads(r.stdout)
    assert report["fleet"]["expected"] == 3 and report["fleet"]["received"] == 3, r.stderr
    assert sorted(n["node"] for n in report["nodes"]) == ["node01", "node02", "node03"]
