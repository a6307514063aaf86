

def test_a_sentence_broken_over_two_lines_is_one_prose_sentence():
    """A writer's (or a wrap's) line break inside a sentence leaves it one sentence: the second line starts in
    lower case and the first does not end one; a new sentence, a list, a log line stay apart."""
    from ascend_doctor.diagnose.evidence.scan import prose_lines

    text = ("The plugin cannot locate npu-smi in any of the paths. As a result, allocation\n"
            "fails and the pod cannot start.\n"
            "Then we restarted the node and tried again with the same image\n"
            "- checked the driver version on the host machine\n")
    assert prose_lines([("<text>", text)]) == [
        "The plugin cannot locate npu-smi in any of the paths. As a result, allocation fails and the pod cannot start.",
        "Then we restarted the node and tried again with the same image",
        "- checked the driver version on the host machine"]


def test_a_paragraph_on_one_line_is_read_sentence_by_sentence():
    """An issue body is rarely wrapped (and a pasted wrap is re-joined): a line longer than a sentence is read
    as the sentences it holds, not dropped as too long to be prose; a long line without sentences still is."""
    from ascend_doctor.diagnose.evidence.scan import MAX_SENTENCE, prose_lines

    sentence = "When MTP is used the prefill node allocates an extra kvcache block that the decode node lacks."
    paragraph = " ".join([sentence] * 5) + " 开启 MTP 后 PD 分离结果不对。然后请求卡住。"
    assert len(paragraph) > MAX_SENTENCE
    assert prose_lines([("<text>", paragraph)]) == [sentence] * 5 + ["开启 MTP 后 PD 分离结果不对。", "然后请求卡住。"]
    assert prose_lines([("<text>", "word " * 120)]) == []


def test_an_aside_in_parentheses_is_prose_and_a_log_record_is_not():
    """A person's remark written in parentheses (full-width in Chinese, made half-width by pasting) is read
    inside; a vLLM worker's record starts with a parenthesis too, but it closes before the line ends."""
    from ascend_doctor.diagnose.evidence.paste import unpaste
    from ascend_doctor.diagnose.evidence.scan import prose_lines

    text = unpaste("（服务器已有其他在起容器，启动命令如下图）\n"
                   "(VllmWorker rank=0 pid=72012) ERROR 07-31 11:41:04 [multiproc_executor.py:522] worker died\n"
                   "  (the same happens on 8.0.RC3 with the official image)\n"
                   "(pid=1)\n")
    assert prose_lines([("<text>", text)]) == ["服务器已有其他在起容器,启动命令如下图",
                                               "the same happens on 8.0.RC3 with the official image"]
