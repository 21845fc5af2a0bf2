#!/usr/bin/env python3
"""The guard against Swift 6.3.1's dropped hop (the Threads article of NavigationGtk's docs): no
`nonisolated(nonsending)` function makes a continuation itself.

In a release build, main-actor code that awaits a `nonisolated(nonsending)` function whose body waits in
`withCheckedContinuation` (or its Unsafe and Throwing kin) for another thread can go on running on that
thread (fixed upstream in swiftlang/swift #88157 and #88285, after 6.3.1; ExecutorIsolationTests shows it).
A function that waits for another thread either takes the caller's isolation as an `isolated` parameter
and hands it to the continuation (`isolation: isolated (any Actor)? = #isolation`, then
`withChecked…Continuation(isolation: isolation)`), or is a `nonisolated(nonsending)` wrapper of one that does
(`ThreadPoolExecutor.run`).

Usage: Tests/check-isolation.py [FOLDER ...]   (default: Sources Tests Examples)
Exits 1 naming each such function; a function that does it on purpose (the test that shows the bug) carries
`// check-isolation: forbidden on purpose` on the line before its `nonisolated(nonsending)`."""
import os
import re
import sys

CONTINUATION = re.compile(r'\bwith(Checked|Unsafe)(Throwing)?Continuation\b')
NONSENDING = re.compile(r'\bnonisolated\(nonsending\)')
ON_PURPOSE = '// check-isolation: forbidden on purpose'


def strip_comments_and_strings(text):
    """The text with comments and string literals blanked (same length, newlines kept), so braces and
    names inside them are not read as code."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(' ' * (j - i)); i = j
        else:
            out.append(text[i]); i += 1
    return ''.join(out)


def body_of_function_after(code, start):
    """(start, end) of the body of the first `func` at or after `start`, or None when what follows the
    attribute is not a function (a closure type: `nonisolated(nonsending) () async -> Void`)."""
    match = re.compile(r'\bfunc\b|[(){}=;]').search(code, start)
    if not match or match.group(0) != 'func':
        return None
    depth, i = 0, match.end()
    while i < len(code):
        c = code[i]
        if c in '([<':
            depth += 1
        elif c in ')]>' and depth > 0 and not code.startswith('->', i - 1):
            depth -= 1
        elif c == '{' and depth == 0:
            break
        elif c == '\n' and depth == 0 and code[i + 1:].lstrip().startswith(('func ', 'var ', 'let ', '}')):
            return None  # a requirement in a protocol: no body
        i += 1
    else:
        return None
    level, j = 0, i
    while j < len(code):
        if code[j] == '{':
            level += 1
        elif code[j] == '}':
            level -= 1
            if level == 0:
                return i, j
        j += 1
    return i, len(code)


def check(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    code = strip_comments_and_strings(text)
    lines = text.split('\n')
    problems = []
    for match in NONSENDING.finditer(code):
        line = code.count('\n', 0, match.start())
        if line > 0 and lines[line - 1].strip() == ON_PURPOSE:
            continue
        body = body_of_function_after(code, match.end())
        if body and CONTINUATION.search(code, body[0], body[1]):
            problems.append(f'{path}:{line + 1}: a nonisolated(nonsending) function makes a continuation itself: '
                            'in a release build the caller can go on running on the thread that resumes it. Take '
                            'the caller\'s isolation as a parameter instead (isolation: isolated (any Actor)? = '
                            '#isolation, and with…Continuation(isolation: isolation)); see Tests/check-isolation.py')
    return problems


def main(folders):
    problems, files = [], 0
    for folder in folders:
        for root, _, names in os.walk(folder):
            if '/.build' in root or root.startswith('.build'):
                continue
            for name in sorted(names):
                if name.endswith('.swift'):
                    files += 1
                    problems += check(os.path.join(root, name))
    for problem in problems:
        print(problem)
    print(f'isolation: {files} Swift files checked, {len(problems)} nonisolated(nonsending) functions make a continuation')
    return 1 if problems else 0


if __name__ == '__main__':
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    sys.exit(main(sys.argv[1:] or ['Sources', 'Tests', 'Examples']))
