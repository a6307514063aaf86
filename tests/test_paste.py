"""What pasting does to a log is undone before it is read (diagnose/evidence/paste.py)."""
from __future__ import annotations

from ascend_doctor.diagnose.evidence.paste import unpaste

OOM = ("[rank0]: RuntimeError: NPU out of memory. Tried to allocate 3.47 GiB (NPU 0; 60.97 GiB total "
       "capacity; 50.12 GiB already allocated; 50.12 GiB current active; 1.02 GiB free)")
TABLE = """+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.0                   Version: 24.1.0                                               |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
+===========================+===============+====================================================+"""


def test_a_line_cut_at_80_columns_is_one_line_again():
    cut = "\n".join(OOM[i:i + 80] for i in range(0, len(OOM), 80))
    assert unpaste(cut + "\nnext") == OOM + "\nnext"


def test_a_soft_wrap_at_spaces_gets_its_spaces_back():
    first = OOM.rfind(" ", 0, 81)
    second = OOM.rfind(" ", 0, first + 81)
    wrapped = OOM[:first] + "\n" + OOM[first + 1:second] + "\n" + OOM[second + 1:]
    assert unpaste(wrapped + "\n" + OOM[:70] + "\n" + OOM[:75]) .startswith(OOM + "\n")


def test_tables_and_separate_lines_stay_apart():
    assert unpaste(TABLE) == TABLE
    log = "INFO 08-01 10:00:01 start\nERROR 08-01 10:00:02 failed\n"
    assert unpaste(log) == log


def test_spaces_full_width_and_container_prefixes():
    assert unpaste("EZ9999：\u00a0Inner\u3000Error（ＥＲＲ００１００）") == "EZ9999: Inner Error(ERR00100)"
    assert unpaste("2025-06-01T08:15:02.123456789Z stderr F ERROR x\n") == "ERROR x\n"


def test_prose_whose_lines_happen_to_be_as_long_is_not_rejoined():
    """Two sentences on lines of nearly the same length look like a wrap; a line that ends a sentence
    followed by one that starts the next (a capital, Chinese, a code fence) is no cut."""
    text = ("This PR fixes a compatibility issue between MindSpeed-MM's LoRA patch and the latest PEFT `x` API.\n"
            "PEFT now invokes the dispatcher with the keyword argument `lora_config`:\n"
            "However, the existing wrapper expected an argument named `config`, causing LoRA init to fail with:\n"
            "```text\n")
    assert unpaste(text) == text


def test_one_line_wrapped_at_spaces_keeps_its_space():
    """A single wrap at a space (the line shorter than a terminal) keeps the space; only a line that fills a
    terminal's width exactly was cut inside a word."""
    text = ("HCCL_CONNECT_TIMEOUT is not explicitly configured; some runs fail during HCCL\n"
            "socket connection establishment around the first FFN communication:\n")
    assert "during HCCL socket connection" in unpaste(text)


def test_a_plog_line_wrapped_after_its_header_is_one_line_again():
    """An 80-column wrap of a CANN plog line breaks after its header, before '[file.cc:94]': the bracket does not
    start a new record there (a header alone never is one), so the message and its header are one line again."""
    head = "[ERROR] LITE(11206,converter_lite):2021-01-08-09:53:15.978.801"
    rest = ("[mindspore/lite/tools/common/protobuf_utils.cc:94] ReadProtoFromBinaryFile] Parse "
            "../../../../mindspore_mnist/checkpoint_lenet-1_1875.mindir failed.")
    other = "[WARNING] LITE(11206,converter_lite):2021-01-08-09:53:15.995.141 [tensor_name_pass.cc:39] Run] name is null"
    import textwrap

    lines = [f"{head} {rest}", other]
    pasted = "\n".join(w for ln in lines for w in textwrap.wrap(ln, 80, break_on_hyphens=False))
    assert pasted.split("\n")[1].startswith("[mindspore/lite/")        # the wrap broke after the header
    assert unpaste(pasted).split("\n") == lines


def test_a_chinese_line_cut_at_80_columns_is_rejoined_and_the_heading_above_it_left_alone():
    """Chinese has no spaces: a wrap may break between any two characters, so a line's first 'word' is its first
    character. The issue form's heading above a cut Chinese line is a line of its own, not the start of the cut
    line, and the cut line is one line again, with nothing put in where it was cut."""
    said = ("在accelerate的state.py中，报错ModuleNotFoundError:No module named 'mindspore.comm func'，"
            "但切换到MindSpore 2.3.1正常，没有向下兼容")
    heading = "**Describe the bug/ 问题描述 (Mandatory / 必填)**"
    text = "\n".join([heading] + [said[i:i + 80] for i in range(0, len(said), 80)] + ["", "- **Hardware**: Ascend 910b4"])
    lines = unpaste(text).split("\n")
    assert lines[0] == heading
    assert lines[1] == said.replace("，", ",")


def test_a_shell_command_continued_over_lines_stays_as_typed():
    """The lines of a ``docker run ... \\`` command are as long as a wrap's but each ends the shell's way; joining
    one onto the next hid the driver mounts after it (vLLM-Ascend report in the dev cases: the container looked
    like it lacked /usr/local/Ascend/driver/lib64)."""
    cmd = ("docker run --rm \\\n"
           "    --name vllm-ascend-env \\\n"
           "    --device /dev/davinci1 \\\n"
           "    -v /usr/local/dcmi:/usr/local/dcmi \\\n"
           "    -v /usr/local/Ascend/driver/tools/hccn_tool:/usr/local/Ascend/driver/tools/hccn_tool \\\n"
           "    -v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi \\\n"
           "    -v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/ \\\n"
           "    -v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/version.info \\\n"
           "    -it $IMAGE bash\n")
    assert unpaste(cmd) == cmd
