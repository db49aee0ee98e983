"""Every Python block of the README, docs/ and this package's README runs as written: each is a test
module of a user's suite, run by pytester with the plugin installed. A block right after
`<!-- snippet: skip (why) -->` is quoted from a file that runs elsewhere."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "python" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")


def python_blocks(doc: Path):
    lines = doc.read_text().split("\n")
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and not re.match(r"^```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        i += 1
        before = start - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        skipped = before >= 0 and lines[before].startswith("<!-- snippet: skip")
        if fence.group(1) == "python" and not skipped:
            yield f"{doc.relative_to(ROOT)}:{start + 1}", "\n".join(body)


BLOCKS = [block for doc in DOCS for block in python_blocks(doc)]


def test_the_docs_show_python_to_run():
    assert {where.split(":")[0] for where, _ in BLOCKS} >= {"README.md", "python/README.md", "docs/clients.md"}


@pytest.mark.parametrize("code", [code for _, code in BLOCKS], ids=[where for where, _ in BLOCKS])
def test_python_block_runs_as_written(pytester, code):
    pytester.makepyfile(test_doc=code)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=len(re.findall(r"^def test_", code, re.M)))
