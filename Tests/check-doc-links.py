#!/usr/bin/env python3
"""Every local link and image that README.md and docs/*.md name exists, and is not ignored by git (so a clean
clone has it: docs/screenshot.png was once shown by the README but never committed, as .gitignore ignores *.png).

Usage: Tests/check-doc-links.py [FILE.md ...]   (default: README.md and docs/*.md)
Exits 1, naming each file, line and target, when a target is missing or ignored."""
import glob
import os
import re
import subprocess
import sys

# [text](target) and ![alt](target), the target up to a space (a "title") or the closing parenthesis; <target>
# in angle brackets; and reference definitions, [name]: target.
INLINE = re.compile(r'!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFERENCE = re.compile(r'^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$')
FENCE = re.compile(r'^\s*(```|~~~)')


def targets(path):
    """(line number, target) for each link in the Markdown file at path, outside fenced code and code spans."""
    in_fence = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            text = re.sub(r'`[^`]*`', '', line)
            for match in INLINE.finditer(text):
                yield number, match.group(1)
            match = REFERENCE.match(text)
            if match:
                yield number, match.group(1)


def is_local(target):
    return not re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target) and not target.startswith('#')


def ignored(path):
    """Whether git ignores path (False outside a git work tree)."""
    result = subprocess.run(['git', 'check-ignore', '-q', '--no-index', path], capture_output=True)
    return result.returncode == 0


def main(files):
    problems = []
    checked = 0
    for md in files:
        for number, target in targets(md):
            if not is_local(target):
                continue
            relative = target.split('#', 1)[0]
            if not relative:
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(md), relative))
            checked += 1
            if not os.path.exists(resolved):
                problems.append(f'{md}:{number}: {target}: no such file ({resolved})')
            elif ignored(resolved):
                problems.append(f'{md}:{number}: {target}: ignored by git (.gitignore), so not in a clone')
    for problem in problems:
        print(problem)
    print(f'doc links: {checked} local links and images checked in {len(files)} files, {len(problems)} broken')
    return 1 if problems else 0


if __name__ == '__main__':
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    sys.exit(main(sys.argv[1:] or ['README.md'] + sorted(glob.glob('docs/*.md'))))
