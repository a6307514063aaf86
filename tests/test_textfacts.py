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


@pytest.mark.parametrize("text, family", [
    ("我们用的是 Atlas 200I DK A2 开发板", "310b"),       # a 310B board, not an A2
    ("on Ascend910B2 with CANN 8.3.RC1", "a2"),
    ("芯片 Ascend310P3", "310p"),
    ("npu Ascend910_9391", "a3"),
    ("Atlas 800 9000 训练服务器 910ProB", "910"),
    ("Ascend 310 推理卡", "310"),
    ("Ascend 950PR 上部署", "950"),
    ("qwen2-vl在香橙派aipro20T24G上推理出错", "310b"),      # Orange Pi AIpro written in Chinese: a 310B board
    ("香橙派 AI Pro 开发板", "310b"),
])
def test_every_product_spelling_gives_its_family(text, family):
    from ascend_doctor.diagnose.evidence.textfacts import facts_from_text

    assert [f.value for f in facts_from_text("<text>", text) if f.key == "hardware.family"] == [family]


def test_a_pasted_a3_table_is_an_a3_as_the_probe_reads_it():
    from ascend_doctor.diagnose.evidence.textfacts import facts_from_text

    from .conftest import FIXTURES

    table = (FIXTURES / "samples/npu-smi-info/a3-910_93-2card-4chip-25.2.0-one-process.txt").read_text()
    fam = [f.value for f in facts_from_text("<text>", "报错了\n" + table) if f.key == "hardware.family"]
    assert fam == ["a3"]


def test_two_part_driver_versions_are_read():
    """'驱动版本24.1' and 'HDK 25.5.X' name an HDK line; the rules and compatibility tables read them."""
    from ascend_doctor.diagnose.evidence.textfacts import facts_from_text

    for text, want in (("不支持驱动版本24.1，目前的配置如下", "24.1"), ("driver version: 25.5.1", "25.5.1"),
                       ("HDK 25.5.X with kernel 6.6", "25.5.X")):
        got = {f.key: f.value for f in facts_from_text("t", text)}
        assert got.get("driver.version") == want, (text, got)


def test_every_match_holds_one_of_its_gate_words():
    """facts_from_text runs a pattern only on the lines holding one of its GATES words."""
    from ascend_doctor.diagnose.evidence import textfacts as tf

    samples = ["CANN 8.3.RC1", "torch_npu 2.7.1", "torch 2.7.1", "vllm-ascend v0.9.1", "vllm 0.9.1", "sglang 0.4.6",
               "MindIE 2.0.RC1", "driver 25.5.0", "驱动 25.5.0", "HDK 25.5.0", "firmware 7.7.0.1.231",
               "kernel 5.10.0-136.12.0.86.h1850.eulerosv2r12.aarch64", "uname -r 5.15.0", "Atlas 200I DK A2",
               "Orange Pi AI Pro", "香橙派AIpro", "Ascend 950PR", "A5", "800I A3", "Ascend910_9391", "910C", "800T A2", "910B3",
               "300I Duo", "Ascend 310P3", "Atlas 800 9000", "Atlas\t800  9000", "Atlas 300T", "Ascend910ProB",
               "Ascend 310", "Atlas 300I 3010", "docker run -it x", "podman exec y", "nerdctl run z",
               "kubectl exec -it p", "huawei.com/Ascend910: 8", "在容器内", "inside the container",
               "v0.11.0rc0-310p", "v0.9.2rc1-a3", "Linux 6.6.0", "triton-ascend 3.2.0", "triton_ascend==3.2.0rc4",
               "Linux version 4.19.90-52.22.v2207.ky10.aarch64"]
    pats = [(k, p) for k, p in tf.PROSE_VERSIONS] + [(f, p) for p, f in tf.PRODUCT] + [("container", p) for p, _ in tf.CONTAINER]
    for text in samples:
        for key, pat in pats:
            m = pat.search(text)
            if m:
                # what the match reads (a look-ahead reads past its end: "v0.11.0rc0" of "v0.11.0rc0-310p")
                assert any(w in tf._folded(text[m.start():]) for w in tf.GATES[key]), (key, text)


def test_a_pasted_table_means_what_the_probe_reads():
    """One mapping from an npu-smi table to the hardware family: every recorded table pasted into a report
    gives the family the probe derives from the same table (or none where the probe says nothing)."""
    from ascend_doctor.diagnose.evidence.textfacts import facts_from_text
    from ascend_doctor.diagnose.parsers.npu_smi_info import parse
    from ascend_doctor.diagnose.probes.derived import family_of

    from .conftest import FIXTURES

    tables = sorted((FIXTURES / "samples/npu-smi-info").glob("*.txt")) + \
        sorted((FIXTURES / "samples/own").glob("npu-smi-info-*.txt"))
    assert len(tables) >= 15
    for path in tables:
        text = path.read_text()
        v = parse(text).value or {}
        devs = v.get("devices") or []
        name0 = next((d.get("name") for d in devs if d.get("name")), None)
        probed = family_of(name0, devs, v.get("layout"))
        pasted = [f.value for f in facts_from_text("<text>", text) if f.key == "hardware.family"]
        assert pasted == ([probed] if probed else []), path.name


def test_python_package_versions_named_in_prose():
    """transformers, numpy and MindSpore versions a report states are facts (a version pair such as new
    transformers with an old torch is what some problems are about); MindSpore Lite is another package."""
    facts = {f.key: f.value for f in facts_from_text(
        "<text>", "env: transformers==4.51.3, numpy 1.26.4, torch 2.1.0\nmindspore: 2.6.0, mindspore-lite 2.5.0")}
    assert facts["pkg.transformers"] == "4.51.3" and facts["pkg.numpy"] == "1.26.4"
    assert facts["pkg.mindspore"] == "2.6.0" and facts["pkg.torch"] == "2.1.0"


@pytest.mark.parametrize("text, family", [
    ("昇腾910B上部署qwen报错", "a2"),           # a Chinese character is a word character to \w
    ("在910B4机器上跑训练", "a2"),
    ("300I Duo卡推理很慢", "310p"),
    ("用的A3服务器", "a3"),
    ("vllm-ascend v0.11.0rc0-310p镜像起服务报错", "310p"),
    ("Atlas-A3-cann-kernels_8.1.RC1_linux-aarch64.run", "a3"),
])
def test_products_next_to_chinese_and_in_tags_and_file_names(text, family):
    assert [f.value for f in facts_from_text("<text>", text) if f.key == "hardware.family"] == [family]


@pytest.mark.parametrize("text, family", [
    ("[Bug]:将910b2上跑通的环境迁移到310p后出现了bug", "310p"),     # it runs on the 310P now
    ("A2 上正常，换到 A3 上报错", "a3"),
    ("We migrated from 910B to Atlas 300I Duo and it fails", "310p"),
    ("910B2 and 310P both fail", "a2"),                            # no move: the first named, as before
])
def test_the_hardware_a_report_moved_to_is_the_one_it_runs_on(text, family):
    assert [f.value for f in facts_from_text("<text>", text) if f.key == "hardware.family"] == [family]


@pytest.mark.parametrize("text, key, value", [
    ("Ascend-cann-toolkit_8.2.RC1_linux-aarch64.run", "cann.version", "8.2.RC1"),
    ("./Ascend-cann-kernels-910b_8.0.RC2_linux.run --install", "cann.version", "8.0.RC2"),
    ("Ascend-hdk-910b-npu-driver_24.1.rc2_linux-aarch64.run", "driver.version", "24.1.rc2"),
    ("Ascend-hdk-910b-npu-firmware_7.3.0.1.231.run", "firmware.version", "7.3.0.1.231"),
    ("pip install torch_npu-2.5.1.post1-cp310-cp310-manylinux_2_17_aarch64.whl", "pkg.torch_npu", "2.5.1.post1"),
    ("vllm_ascend-0.9.1-cp310-cp310-linux_aarch64.whl", "pkg.vllm_ascend", "0.9.1"),
    ("Successfully installed torch-2.5.1 torch_npu-2.5.1.post1", "pkg.torch", "2.5.1"),
    ("torch_npu版本为 2.5.1", "pkg.torch_npu", "2.5.1"),
    ("驱动24.1.rc2版本", "driver.version", "24.1.rc2"),
    ("Mindspore2.3.0 API不兼容", "pkg.mindspore", "2.3.0"),
    # vLLM-Ascend's image tags name its release without naming vLLM-Ascend
    ("v0.11.0rc0-310p拉起qwen vl 8B 报错", "pkg.vllm_ascend", "0.11.0rc0"),
    ("image v0.9.2rc1-a3-openeuler", "pkg.vllm_ascend", "0.9.2rc1"),
    # pre-release CANN spellings whole (8.0.0RC3 is not 8.0.0, 9.0.0-beta.2 not 9.0.0), and the kernel as
    # uname -sr and /proc/version print it
    ("CANN 8.0.0RC3 驱动 25.5.x", "cann.version", "8.0.0RC3"),
    ("CANN 9.0.0-beta.2, Linux 6.6.0", "cann.version", "9.0.0-beta.2"),
    ("CANN 8.5.0.alpha001", "cann.version", "8.5.0.alpha001"),
    ("CANN 9.0.0-beta.2, Linux 6.6.0", "kernel.release", "6.6.0"),
    ("Linux version 4.19.90-52.22.v2207.ky10.aarch64 (root@x)", "kernel.release", "4.19.90-52.22.v2207.ky10.aarch64"),
    # triton-ascend (checked against CANN by AD-PY-014), a dash before a version Chinese follows, CANN's own
    # install folder (cann-8.5.0 from CANN 8.5 on)
    ("使用CANN-9.1.0和triton-ascend-3.2.0版本拉起训练时报错", "pkg.triton_ascend", "3.2.0"),
    ("使用CANN-9.1.0和triton-ascend-3.2.0版本拉起训练时报错", "cann.version", "9.1.0"),
    ("pip install triton-ascend==3.2.0rc4", "pkg.triton_ascend", "3.2.0rc4"),
    ("triton_ascend-3.2.0-cp311-cp311-manylinux_2_27_aarch64.whl", "pkg.triton_ascend", "3.2.0"),
    ("我用的 vllm-ascend-0.9.1rc1版本", "pkg.vllm_ascend", "0.9.1rc1"),
    ("ASCEND_HOME_PATH=/usr/local/Ascend/cann-8.5.0", "cann.version", "8.5.0"),
    # a release candidate written without its dot, as people write 8.3.RC2
    (" - CANN Version: 8.3rc2", "cann.version", "8.3rc2"),
    ("cann版本8.2RC1环境下报错", "cann.version", "8.2RC1"),
    # an issue form's fields in Markdown bold or code, and the Python version it states (never a path's python3.11)
    ("- **Driver version**: 24.1.rc2", "driver.version", "24.1.rc2"),
    ("- `torch_npu` version: 2.1.0.post6", "pkg.torch_npu", "2.1.0.post6"),
    ("- Python版本: 3.9.10", "python.version", "3.9.10"),
    ("-- Python version (e.g., Python 3.7.5): 3.9", "python.version", "3.9"),
    ('File "/usr/local/python3.11.13/lib/python3.11/site-packages/torch/x.py", line 1', "python.version", None),
    # vLLM-Ascend written with a space, as its docs title it
    ("vllm ascend 0.14.0RC1 A2机器部署qwen3-rerank-4B精度问题", "pkg.vllm_ascend", "0.14.0RC1"),
    ("vLLM Ascend v0.13.0 部署报错", "pkg.vllm_ascend", "0.13.0"),
])
def test_versions_in_package_file_names_and_chinese_wording(text, key, value):
    assert {f.key: f.value for f in facts_from_text("<text>", text)}.get(key) == value


@pytest.mark.parametrize("text", ["Ubuntu 22.04 Linux x86_64", "Ascend-cann-toolkit_8.2.RC1_linux-aarch64.run", "Linux 6.6"])
def test_linux_names_no_kernel_without_a_three_part_version(text):
    assert "kernel.release" not in {f.key for f in facts_from_text("<text>", text)}


@pytest.mark.parametrize("text", ["Qwen3-30B-A3B v1.2.3-a3b", "v0.11.0rc0-310pX", "image v0.9.1-openeuler",
                                  "uses v0.9.1 on a 310P"])
def test_a_bare_version_is_no_vllm_ascend_release(text):
    assert "pkg.vllm_ascend" not in {f.key for f in facts_from_text("<text>", text)}


@pytest.mark.parametrize("text, key, value", [
    # pip's conflict message: the first torch is what vllm-ascend requires, the second what is installed
    ("vllm-ascend 0.11.0rc1 requires torch==2.7.1, but you have torch 2.8.0 which is incompatible.", "pkg.torch", "2.8.0"),
    ("needs CANN 8.5.0 or newer; I have CANN 8.3.RC1", "cann.version", "8.3.RC1"),
    ("报错 No module named 'mindspore.comm_func'，但切换到MindSpore 2.3.1正常\nMindSpore version: MindSpore 2.3.0",
     "pkg.mindspore", "2.3.0"),
    ("CANN 8.2.RC1及以上才支持，当前 CANN 8.0.RC3", "cann.version", "8.0.RC3"),
    # a CANN line written short, as people do ('CANN 8.5', 'cann8.5版本'): the line, compared as a line
    ("升级到 cann8.5版本后报错", "cann.version", "8.5"),
    ("CANN 9.1) 下运行报错", "cann.version", "9.1"),
    # MindSpore 1.x's Ascend build, in pip list and as its wheel's file name
    ("mindspore-ascend      1.8.1\nmindinsight 1.8.0", "pkg.mindspore", "1.8.1"),
    ("pip install mindspore_ascend-1.6.1-cp37-cp37m-linux_aarch64.whl 后报错", "pkg.mindspore", "1.6.1"),
    # a version named only as the requirement is still the version the report is about
    ("需要 CANN 8.5.0", "cann.version", "8.5.0"),
    # a conda environment named after a release is no installed version
    ("/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages\ntorch 2.2.0", "pkg.torch", "2.2.0"),
])
def test_the_installed_version_wins_over_a_required_one(text, key, value):
    assert {f.key: f.value for f in facts_from_text("<text>", text)}.get(key) == value


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_versions_after_thousands_of_worker_lines_keep_their_line(newline):
    """A serve log's "(VllmWorker rank=0 ...)" lines all hold the word vllm but no version of it: the versions a
    later line states are found, on their own line, whatever the log's line ends."""
    worker = "(VllmWorker rank=0 pid=1234) INFO 08-20 10:00:00 [model_runner.py:1] Loading weights took 15.4 GB"
    text = newline.join([worker] * 3000 + ["vllm 0.9.1", "VLLM-Ascend: v0.9.1rc2", worker])
    facts = {f.key: f for f in facts_from_text("log", text)}
    assert (facts["pkg.vllm"].value, facts["pkg.vllm"].source) == ("0.9.1", "text:log:3001")
    assert (facts["pkg.vllm_ascend"].value, facts["pkg.vllm_ascend"].source) == ("0.9.1rc2", "text:log:3002")


def test_variables_a_report_sets_are_its_env_facts():
    """`export` lines (also as `set -x` prints them), a Dockerfile's ENV and os.environ[...] = give env.<NAME>; the last
    setting wins as in a shell; commented-out lines and values the text does not give ($VAR, <placeholder>, `cmd`) do
    not."""
    text = "\n".join([
        "export ASCEND_LAUNCH_BLOCKING=1",
        "#export CPU_AFFINITY_CONF=2",
        "export LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64:$LD_LIBRARY_PATH",
        "+ export HCCL_BUFFSIZE=1024",
        'export HCCL_OP_RETRY_ENABLE="L0:0, L1:0, L2:0"',
        "export HCCL_IF_IP=<your ip>",
        "ENV VLLM_USE_MODELSCOPE=True",
        'os.environ["ASCEND_RT_VISIBLE_DEVICES"] = "0,1"  # two cards',
        "export HCCL_BUFFSIZE=2048 && vllm serve /models/qwen",
        "echo export TASK_QUEUE_ENABLE=2",
        "export HCCL_CONNECT_TIMEOUT=`cat /etc/timeout`",      # a command's output: no value the text gives,
        "- **Driver version**: 24.1.rc2",                      # even where Markdown is read around the form's fields
    ])
    facts = {f.key: (f.value, f.source) for f in facts_from_text("<text>", text) if f.key.startswith("env.")}
    assert facts == {
        "env.ASCEND_LAUNCH_BLOCKING": ("1", "text:<text>:1"),
        "env.HCCL_BUFFSIZE": ("2048", "text:<text>:9"),
        "env.HCCL_OP_RETRY_ENABLE": ("L0:0, L1:0, L2:0", "text:<text>:5"),
        "env.VLLM_USE_MODELSCOPE": ("True", "text:<text>:7"),
        "env.ASCEND_RT_VISIBLE_DEVICES": ("0,1", "text:<text>:8"),
    }



def test_an_environment_table_in_markdown_gives_its_versions():
    """Issue forms often list the environment as a Markdown table: each row naming a thing and its version is
    read as that field, on its own line; an npu-smi table is no such row."""
    text = ("| 软件 | 版本 |\n|---|---|\n| CANN | 8.3.RC2 |\n| torch_npu | 2.7.1 |\n| vllm-ascend | 0.11.0rc1 |\n"
            "| 驱动 | 25.2.0 |\n")
    facts = {f.key: (f.value, f.source) for f in facts_from_text("<text>", text)}
    assert facts["cann.version"] == ("8.3.RC2", "text:<text>:3")
    assert facts["pkg.torch_npu"][0] == "2.7.1" and facts["pkg.vllm_ascend"][0] == "0.11.0rc1"
    assert facts["driver.version"][0] == "25.2.0"
