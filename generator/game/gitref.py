"""Git's rules for the names of branches and remotes, so `sixes check`
refuses a name git would refuse, at its line in sixes.yaml, before any git
command sees it.

Pure (standard library only). The rules are git's own (`git help
check-ref-format`, and `git check-ref-format --branch` for a branch; a
remote name is valid when refs/remotes/<name>/x is), plus one of ours: no
name may begin with "-", so that no value can ever be read as an option of
a git command (`--mirror`).
"""
from __future__ import annotations

# Characters git never allows in a ref name (controls and DEL are checked apart).
_FORBIDDEN = {" ": "a space", "~": "'~'", "^": "'^'", ":": "':'", "?": "'?'", "*": "'*'", "[": "'['",
              "\\": "a backslash"}
ALLOWED = ("a name git accepts: no spaces, control characters or ~ ^ : ? * [ \\; not beginning with '-', "
           "'.' or '/'; no '..', '//' or '@{'; no part ending in '.lock'; not ending in '.' or '/'")


def ref_problem(ref: str) -> str | None:
    """Why git would refuse the full ref name `ref` (e.g. refs/heads/x), or None."""
    for char in ref:
        if ord(char) < 0x20 or ord(char) == 0x7F:
            return f"it holds a control character (U+{ord(char):04X})"
        if char in _FORBIDDEN:
            return f"it holds {_FORBIDDEN[char]}"
    if ref == "@":
        return "it is '@', which git reads as HEAD"
    if "@{" in ref:
        return "it holds '@{', which git reads as a reflog"
    if ".." in ref:
        return "it holds '..'"
    if ref.startswith("/") or ref.endswith("/") or "//" in ref:
        return "it begins or ends with '/' or holds '//'"
    if ref.endswith("."):
        return "it ends with '.'"
    for part in ref.split("/"):
        if part.startswith("."):
            return f"its part '{part}' begins with '.'"
        if part.endswith(".lock"):
            return f"its part '{part}' ends with '.lock'"
    return None


def branch_problem(name: str) -> str | None:
    """Why `name` cannot be a branch (git check-ref-format --branch), or None."""
    if not name:
        return "it is empty"
    if name.startswith("-"):
        return "it begins with '-', so git would read it as an option"
    if name in ("HEAD", "@"):
        return f"{name} names the checked-out commit, not a branch"
    return ref_problem(f"refs/heads/{name}")


def remote_problem(name: str) -> str | None:
    """Why `name` cannot be a remote's name, or None."""
    if not name:
        return "it is empty"
    if name.startswith("-"):
        return "it begins with '-', so git would read it as an option"
    if "/" in name:
        return "it holds '/'"
    return ref_problem(f"refs/remotes/{name}/x")
