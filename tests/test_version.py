"""The Ascend version grammar (rules/version.py): ordering, ranges, series, families."""
from __future__ import annotations

import pytest

from ascend_doctor.kb.language.version import VersionError, compare, parse, parse_spec, satisfies

ASCENDING = [
    ["8.0.RC1", "8.0.RC2.alpha003", "8.0.RC2", "8.0.rc2.1", "8.0.RC3", "8.0.0", "8.0.0.3", "8.1.RC1", "8.5.0",
     "9.1.0-beta.3", "9.1.0", "9.2.0"],
    ["23.0.2.1", "23.0.3", "24.1.RC1", "24.1.rc2.3", "24.1.RC3", "24.1.0", "24.1.0.3", "25.0.RC1", "25.0.rc1.1",
     "25.5.3", "26.0.RC1", "26.0.RC3", "26.1.0"],
    ["2.7.1.dev20250724", "2.7.1rc1", "2.7.1", "2.7.1.post1.dev20250528", "2.7.1.post1", "2.7.1.post2", "2.8.0"],
    ["v0.7.3rc1", "v0.7.3", "v0.7.3.post1", "0.11.0rc0", "0.11.0rc3", "0.11.0"],
    ["6.2.1.0", "7.1.0.4.218", "7.1.0.11.220"],
    ["V100R001C17", "V100R001C21SPC003B235", "V100R001C22SPC001B231", "V100R001C25SPC002B220"],
]


@pytest.mark.parametrize("seq", ASCENDING, ids=lambda s: s[0])
def test_ordering(seq):
    vs = [parse(v) for v in seq]
    for a, b in zip(vs, vs[1:]):
        assert a < b, f"{a} < {b}"
        assert not b < a
        assert compare(a, b) == -1 and compare(b, a) == 1


def test_case_insensitive_and_equal():
    assert compare("24.1.rc3", "24.1.RC3") == 0
    assert compare("8.0.rc2.ALPHA003", "8.0.RC2.alpha003") == 0
    assert compare("8.5", "8.5.0") == 0


def test_build_numbers_and_local_labels_only_break_ties():
    assert satisfies("25.0.rc1.b033", "==25.0.RC1")
    assert satisfies("24.1.rc3.b999", ">=24.1.RC3,<24.1.0")
    assert parse("25.0.rc1.b033").build == 33
    assert satisfies("2.9.0.post1+git4c901a4", "==2.9.0.post1")
    assert satisfies("2.10.0+cpu", "2.10.0")
    assert not satisfies("2.9.0.post1+git4c901a4", "==2.9.0")


def test_ranges_and_alternatives():
    spec = ">=8.0.RC1,<8.3 || 9.x"
    assert satisfies("8.0.RC1", spec)
    assert satisfies("8.2.RC1", spec)
    assert not satisfies("8.3.RC1", spec)      # "<8.3": before the 8.3 line, so not its RCs
    assert not satisfies("8.5.0", spec)
    assert satisfies("9.1.0-beta.3", spec)
    assert not satisfies("7.0.0", spec)
    assert satisfies("25.5.3", "!=25.5.2")
    assert not satisfies("25.5.2", "!=25.5.2")


def test_rc_is_below_the_release_line():
    # 8.3.RC1 is a pre-release of 8.3.0, so it is below 8.3 == 8.3.0
    assert parse("8.3.RC1") < parse("8.3")


def test_series():
    for v in ("25.5.0", "25.5.3", "25.5.RC1", "25.5.rc1.b001"):
        assert satisfies(v, "25.5.X")
        assert satisfies(v, "25.5.x")
        assert satisfies(v, "25.5.*")
    assert not satisfies("25.3.0", "25.5.X")
    assert not satisfies("26.0.RC1", "25.X")
    assert satisfies("9.0.1", "9.x")


def test_short_equality_names_a_line():
    assert satisfies("3.11.4", "==3.11")
    assert not satisfies("3.12.0", "==3.11")
    assert satisfies("3.12.1", ">=3.10,<3.13")
    assert not satisfies("3.13.0", ">=3.10,<3.13")


def test_kernel_family():
    assert satisfies("6.6.0-98.oe2403sp1.aarch64", ">=5.19", "kernel")
    assert satisfies("5.15.0-78-generic", "<5.19", "kernel")
    assert parse("5.15.0-78-generic", "kernel") > parse("5.15.0-60-generic", "kernel")
    with pytest.raises(VersionError):
        parse("5.15.0-78-generic")      # without the kernel family the suffix is not a version


def test_families_do_not_mix():
    with pytest.raises(VersionError):
        compare(parse("8.5.0", "cann"), parse("25.5.0", "hdk"))
    with pytest.raises(VersionError):
        compare("V100R001C22SPC001B231", "8.0.0")
    with pytest.raises(VersionError):
        satisfies("V100R001C22", "25.5.X")


@pytest.mark.parametrize("bad", ["", "abc", "8.0.RC2.foo", "1..2", "8.0.RC2.b001.rc1", "+local", "x" * 200])
def test_bad_versions(bad):
    with pytest.raises(VersionError):
        parse(bad)


@pytest.mark.parametrize("bad", ["", ">=", "8.0,,9", ">=25.5.X", "<8 || ", "> foo"])
def test_bad_ranges(bad):
    with pytest.raises(VersionError):
        parse_spec(bad)


def test_less_than_a_line_excludes_its_release_candidates():
    assert not satisfies("8.3.RC1", "<8.3")
    assert satisfies("8.3.RC1", "<8.3.0")
    assert satisfies("26.0.RC1", "<26.0.RC3")
    assert satisfies("8.2.RC1", "<8.3")


def test_a_bare_short_version_names_the_line_of_its_releases():
    """'25.5' (HDK25.5) names 25.5.1's line; a CANN line begins with its release candidates, so 'CANN 8.3' names
    8.3.RC1's line too and starts before it; a version with a qualifier names no line."""
    assert parse("25.5", "hdk").names_line_of(parse("25.5.1", "hdk"))
    assert not parse("25.5", "hdk").names_line_of(parse("26.0.0", "hdk"))
    assert parse("8.3", "cann").names_line_of(parse("8.3.RC1", "cann"))
    assert not parse("8.3.RC1", "cann").names_line_of(parse("8.3.RC1.alpha002", "cann"))
    first, late = parse("8.3", "cann").line_bounds(2)
    assert first < parse("8.3.RC1.alpha001", "cann") and late > parse("8.3.RC2", "cann")
    first, late = parse("8.5", "cann").line_bounds(3)
    assert first.cmp(parse("8.5.0", "cann")) == 0 and late > parse("8.5.1", "cann")
    first, late = parse("25.5", "hdk").line_bounds(3)
    assert first.cmp(parse("25.5.0", "hdk")) == 0 and late > parse("25.5.99", "hdk")
