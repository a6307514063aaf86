

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
