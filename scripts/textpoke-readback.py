#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that x86 text poking still reads back what it writes (issue 21.3).

__text_poke() compares the text with what it meant to write only when its
copy function is text_poke_memcpy.  Any other copy function that writes
instructions (our batch's tp_step_memcpy, patch 0007) leaves the check to
its caller: the function calling __text_poke() with it must itself call
memcmp(), or a function of the file that does.  text_poke_memset fills
INT3 padding and was never checked, so it is left out.

Usage: textpoke-readback.py arch/x86/kernel/alternative.c
Prints one line per unchecked call; exit status 1 if there is any.
"""
import re
import sys

CHECKED_INSIDE = {"text_poke_memcpy", "text_poke_memset"}


def functions(src):
    """Yield (name, body) for each function defined at the file's top level."""
    head = re.compile(r"^[A-Za-z_][^;{}]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*?)\)\s*\n\{\n",
                      re.M | re.S)
    for m in head.finditer(src):
        end = src.find("\n}\n", m.end() - 1)
        if end < 0:
            continue
        yield m.group(1), src[m.end():end]


def main(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    funcs = dict(functions(src))
    if "__text_poke" not in funcs:
        print(f"{path}: no __text_poke() definition found")
        return 1
    checkers = {name for name, body in funcs.items()
                if "memcmp(" in body and name != "__text_poke"}
    calls = re.compile(r"\b(" + "|".join(map(re.escape, checkers | {"memcmp"})) + r")\s*\(")
    bad = 0
    for name, body in funcs.items():
        for m in re.finditer(r"\b__text_poke\(\s*(\w+)\s*,", body):
            copy = m.group(1)
            if copy in CHECKED_INSIDE or name == "__text_poke":
                continue
            if not calls.search(body):
                print(f"{path}: {name}() writes text with __text_poke({copy}, ...) "
                      "and never compares it with what it meant to write")
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
