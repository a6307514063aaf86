"""A pasted ``docker run`` command says what the container has (parsers/container_run.py), and the container
rules judge it as they judge the probes inside a container: real commands from public reports
(tests/fixtures/samples/container-run, sources in SOURCES.md)."""
from __future__ import annotations

from ascend_doctor.diagnose.evidence.textfacts import facts_from_text
from ascend_doctor.diagnose.parsers import find_blocks
from ascend_doctor.diagnose.parsers.container_run import parse

from .conftest import FIXTURES

SAMPLES = FIXTURES / "samples" / "container-run"


def _facts(text: str) -> dict:
    return {f.key: f.value for f in facts_from_text("report", text)}


def test_the_quick_start_command_gives_its_devices_and_driver_mounts():
    text = (SAMPLES / "vllm-ascend-devices-and-driver-mounts.txt").read_text()
    facts = _facts(text)
    assert facts["container.kind"] == "docker"
    assert facts["dev.nodes"] == ["davinci0", "davinci_manager", "devmm_svm", "hisi_hdc"]
    mounts = facts["mounts.present"]
    assert mounts["/usr/local/Ascend/driver/lib64"] and mounts["/usr/local/dcmi"] and mounts["/etc/ascend_install.info"]
    assert mounts["/usr/local/Ascend/driver/version.info"] and mounts["/usr/local/bin/npu-smi"]
    assert facts["shm.size_bytes"] == 64 << 20          # no --shm-size: the engine's default


def test_a_device_given_by_a_variable_leaves_the_devices_unknown_but_not_the_mounts():
    facts = _facts((SAMPLES / "vllm-ascend-device-variable-no-driver-mount-oneline.txt").read_text())
    assert "dev.nodes" not in facts                     # --device $DEVICE: which one is not said
    assert facts["mounts.present"]["/usr/local/Ascend/driver/lib64"] is False


def test_the_ascend_docker_runtimes_variable_means_devices_and_mounts_are_not_known_from_the_command():
    text = (SAMPLES / "lmdeploy-visible-devices-env-after-chinese-prose.txt").read_text()
    blocks = [b for b in find_blocks(text) if b.kind == "container-run"]
    assert len(blocks) == 1 and (blocks[0].start_line, blocks[0].end_line) == (1, 5)
    facts = _facts(text)
    assert facts["env.ASCEND_VISIBLE_DEVICES"] == "1,2,3,4"
    assert "dev.nodes" not in facts and "mounts.present" not in facts


def test_options_in_every_spelling():
    v = parse("docker run --privileged=true --shm-size=16g --ipc host -e A=1 --env B=2 "
              "--mount type=bind,source=/usr/local/Ascend/driver,target=/usr/local/Ascend/driver "
              "--device=/dev/davinci3:/dev/davinci0 -itd image:tag python x.py --device /dev/null").value
    assert v["privileged"] and v["shm_size"] == 16 << 30 and v["ipc"] == "host"
    assert v["env"] == {"A": "1", "B": "2"} and v["image"] == "image:tag"
    assert v["devices"] == ["/dev/davinci0"]            # the container side; the program's own options are not read
    assert v["volumes"] == ["/usr/local/Ascend/driver"]
    assert parse("podman run --rm img").value["engine"] == "podman"
    assert not parse("docker ps -a").ok
    assert parse('docker run -e "A=1 img').value["env"] == {"A": "1"}     # an unclosed quote: read word by word


def test_a_pasted_command_without_the_driver_mount_names_the_failing_check(cli):
    import json

    text = (SAMPLES / "vllm-ascend-device-variable-no-driver-mount-oneline.txt").read_text() + \
        "libascend_hal.so: cannot open shared object file: No such file or directory\n"
    r = cli("diagnose", "--no-env", "--format", "json", "--text", text)
    top = json.loads(r.out)["findings"][0]
    assert top["id"] == "container-driver-not-mounted"
    assert any("AD-CONT-005" in e["text"] for e in top["evidence"]), top["evidence"]


def test_a_sentence_that_only_names_the_command_is_not_one():
    """A report walking through a tutorial's headings ("docker run --》Atlas 800I A3 --》", vLLM-Ascend issue
    #11238) pasted no command: no container facts, so no "driver not mounted" finding from a command never run."""
    text = ("2.查看Qwen3-30B-A3B部署指引步骤4 Installation--》 4.1 Docker Image Installation--》docker run  --》Atlas 800I A3 --》\n"
            "export IMAGE=quay.io/ascend/vllm-ascend:v0.22.1rc1\n")
    assert not parse(text).ok
    assert "mounts.present" not in _facts(text)
    assert not parse("docker run 一下这个镜像就报错").ok
    assert parse("docker run -it --rm ${IMAGE}:${TAG} bash").value["image"] == "${IMAGE}:${TAG}"
    assert parse("docker run -it registry.example.com:5000/ascend/vllm-ascend:v0.9.1-A3 bash").ok


def test_a_command_typed_at_a_terminal_keeps_its_continuation_lines():
    """Typed in a terminal, each continuation line starts with the "> " prompt (vLLM issue #19543, a dev case)."""
    text = ("docker run -d \\\n> --entrypoint /bin/bash \\\n> --network host \\\n> --shm-size 10.24g \\\n"
            "> -e VLLM_HOST_IP=127.0.0.1 \\\n> -v /data:/data \\\n"
            "> harbor.inspur.local/ai-group/vllm:0.7.3-python3.11-cuda12.4-debian12 \\\n"
            '>     -c "ray start --block --address=127.0.0.1:6379"\n')
    v = parse(text).value
    assert v["image"] == "harbor.inspur.local/ai-group/vllm:0.7.3-python3.11-cuda12.4-debian12"
    assert v["env"] == {"VLLM_HOST_IP": "127.0.0.1"} and v["volumes"] == ["/data"]
    assert v["shm_size"] == int(10.24 * (1 << 30))
