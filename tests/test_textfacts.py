"""Facts read from pasted text: the container a report ran in."""
from __future__ import annotations

import pytest

from ascend_doctor.diagnose.evidence.textfacts import facts_from_text


def _kind(text: str):
    facts = {f.key: f for f in facts_from_text("<text>", text)}
    f = facts.get("container.kind")
    return (f.value, f.source) if f else None


@pytest.mark.parametrize("text, kind", [
    ("docker run --rm --device /dev/davinci0 -it $IMAGE bash\nlibascend_hal.so: cannot open shared object file", "docker"),
    ("[root@host ~]# docker exec -it vllm bash", "docker"),
    ("$ sudo podman run --device /dev/davinci_manager img", "podman"),
    ("kubectl exec -it vllm-0 -- npu-smi info", "kubernetes"),
    ("resources:\n  limits:\n    huawei.com/Ascend910: 8", "kubernetes"),
    ("在容器内执行 npu-smi info 报错", "unknown-container"),
    ("It works on the host but fails inside the container.", "unknown-container"),
])
def test_container_named_in_a_report(text, kind):
    found = _kind(text)
    assert found is not None and found[0] == kind
    assert found[1].startswith("text:<text>:")


@pytest.mark.parametrize("text", [
    "I read the docker documentation and installed the driver on the host.",
    "docker-compose.yml is attached",
    "INFO 08-20 10:01:02 [api_server.py:1] vLLM API server version 0.9.1",
    "the container image tag is v0.9.1",
])
def test_no_container_fact_without_evidence(text):
    assert _kind(text) is None


def test_first_container_line_wins_and_names_its_line():
    text = "line one\ndocker run -it img\nkubectl exec pod -- bash\n"
    assert _kind(text) == ("docker", "text:<text>:2")
