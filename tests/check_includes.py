#!/usr/bin/env python3
"""The house's rules for #include lines in model/ and ui/ (docs/architecture.md explains them).

- model/ never includes ui/ nor a QtGui or QtWidgets header: the model is tested headless and the qryn client
  knows no widget.
- A quoted include names its folder ("tree/CallTree.h"), so a reader sees where a name lives; only generated
  headers (*.pb.h, *.moc) are named bare.
- A folder includes only itself and the folders below it (LAYERS). The loose files of model/ and ui/ are the top of
  their library and may include everything in it; ui/ may include all of model/.
- No source file (model/, ui/, app/, tests/, bench/, fuzz/) is over MAX_LINES lines.
- A model test (tests/model/) is headless and links the model only: it includes no ui/ or app/ header and no QtGui
  or QtWidgets one (tests/CMakeLists.txt refuses the libraries too).
- Background work has one place: in ui/ and app/ only JOB_HELPER (controls/LatestJob.h, "the latest job wins")
  includes QtConcurrent or QFutureWatcher; model/ starts its jobs as it likes. No widget starts or watches a job
  of its own, so no widget keeps a hand-written "latest request" counter.

Prints one line per breach and exits 1, or prints a summary and exits 0. `--self-test` plants a breach of each
kind in a copy of the tree and fails unless every one is caught (ctest runs both).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# What each folder may include besides itself, lowest layer first.
LAYERS = {
    'model': {
        'io': [],
        'pprof': ['io'],
        'names': ['io', 'pprof'],
        'tree': ['io', 'pprof'],
        'diff': ['io', 'pprof', 'tree'],
        'time': ['io', 'pprof', 'tree', 'diff'],
        'formats': ['io', 'pprof', 'names', 'time'],
        'layout': ['io', 'pprof', 'tree'],
        'rounds': ['io', 'pprof', 'formats', 'tree', 'diff', 'graph'],
        'export': ['io', 'pprof', 'tree', 'diff'],
        'pgo': ['io', 'pprof', 'formats', 'tree', 'diff', 'export'],
        'graph': ['io', 'pprof', 'tree', 'diff', 'pgo'],
        'source': ['io', 'pprof', 'tree', 'diff', 'rounds'],
        'disasm': ['io', 'pprof', 'names', 'tree', 'diff', 'pgo'],
        'qryn': ['io', 'pprof', 'formats', 'tree', 'layout', 'export', 'rounds'],
        'fetch': ['io', 'pprof', 'formats', 'qryn'],
        'report': ['io', 'pprof', 'names', 'formats', 'tree', 'diff', 'layout', 'export', 'rounds', 'pgo', 'source', 'disasm',
                   'graph', 'time'],
    },
    'ui': {
        'controls': [],
        'flame': ['controls'],
        'tables': ['controls', 'flame'],
        'compare': ['controls', 'flame', 'tables'],
        'pgoview': ['controls', 'flame', 'tables', 'compare'],
        'sourceview': ['controls', 'flame', 'tables', 'compare'],
        'graphview': ['controls', 'flame', 'tables', 'compare'],
        'asmview': ['controls', 'flame', 'tables', 'compare'],
        'time': ['controls', 'flame', 'tables', 'compare'],
        'document': ['controls', 'flame', 'tables', 'compare', 'pgoview', 'sourceview', 'graphview', 'asmview', 'time'],
        'roundsview': ['controls', 'flame', 'tables', 'compare', 'pgoview', 'sourceview', 'document'],
        'explorer': ['controls', 'flame', 'tables', 'compare', 'pgoview', 'sourceview', 'document'],
    },
}
MAX_LINES = 800
SOURCE = re.compile(r'\.(h|cpp)$')
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANGLED = re.compile(r'^\s*#\s*include\s+<([^>]+)>')
GENERATED = re.compile(r'(\.pb\.h|\.moc)$')
JOB_HEADER = re.compile(r'^(QtConcurrent|QFutureWatcher)')   # <QtConcurrent/...>, <QtConcurrentRun>, <QFutureWatcher>
JOB_HELPER = os.path.join('ui', 'controls', 'LatestJob.h')


def qt_headers(qt_include_dir):
    """Every header name of QtGui and QtWidgets, as <QWidget> or <QtWidgets/QWidget> would name it."""
    names = set()
    for module in ('QtGui', 'QtWidgets'):
        d = os.path.join(qt_include_dir, module)
        if not os.path.isdir(d):
            sys.exit(f'check_includes: no {d}: pass --qt-include, the folder that holds QtCore/ and QtWidgets/')
        names.add(module)
        for entry in os.listdir(d):
            names.add(entry)
            names.add(f'{module}/{entry}')
    return names


def sources(root, library):
    for dirpath, _, filenames in os.walk(os.path.join(root, library)):
        for name in sorted(filenames):
            if SOURCE.search(name):
                yield os.path.join(dirpath, name)


def folder_of(root, library, path):
    rel = os.path.relpath(path, os.path.join(root, library))
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else ''   # '' : a loose file, the top of the library


def check(root, qt_include_dir):
    gui = qt_headers(qt_include_dir)
    breaches = []
    counted = 0
    for library in ('model', 'ui'):
        others = [lib for lib in LAYERS if lib != library]
        for path in sources(root, library):
            counted += 1
            here = folder_of(root, library, path)
            shown = os.path.relpath(path, root)
            if here and here not in LAYERS[library]:
                breaches.append(f'{shown}: folder {library}/{here}/ is not in the layers of tests/check_includes.py')
                continue
            allowed = None if here == '' else set(LAYERS[library][here]) | {here}
            with open(path, encoding='utf-8', errors='replace') as f:
                lines = f.read().split('\n')
            for number, line in enumerate(lines, 1):
                at = f'{shown}:{number}'
                m = ANGLED.match(line)
                if m and library == 'model' and m.group(1) in gui:
                    breaches.append(f'{at}: model/ includes the GUI header <{m.group(1)}>')
                    continue
                if m and library == 'ui' and JOB_HEADER.match(m.group(1)) and shown != JOB_HELPER:
                    breaches.append(f'{at}: <{m.group(1)}> outside {JOB_HELPER}: a widget\'s background work is a '
                                    f'LatestJob (or a model job it follows)')
                    continue
                m = QUOTED.match(line)
                if not m or GENERATED.search(m.group(1)):
                    continue
                target = m.group(1)
                own = os.path.join(root, library, target)
                lower = [lib for lib in others if os.path.exists(os.path.join(root, lib, target))]
                if not os.path.exists(own) and not lower:
                    breaches.append(f'{at}: "{target}" is not a path below model/ or ui/ (includes carry the folder)')
                    continue
                if not os.path.exists(own):
                    if library == 'model':
                        breaches.append(f'{at}: model/ includes ui/{target}')
                    continue   # ui/ including model/: always allowed
                there = target.split('/')[0] if '/' in target else ''
                if allowed is not None and there not in allowed:
                    where = f'{library}/{there}/' if there else f'the top of {library}/'
                    breaches.append(f'{at}: {library}/{here}/ includes {where} ("{target}"), which sits above it; '
                                    f'{library}/{here}/ may include {", ".join(sorted(allowed)) or "nothing"}')
            if len(lines) - 1 > MAX_LINES:
                breaches.append(f'{shown}: {len(lines) - 1} lines, more than {MAX_LINES}')
    for path in (p for folder in ('app', 'tests', 'bench', 'fuzz') for p in sources(root, folder)):
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        n = text.count('\n')
        if path.startswith(os.path.join(root, 'app') + os.sep):
            for number, line in enumerate(text.split('\n'), 1):
                m = ANGLED.match(line)
                if m and JOB_HEADER.match(m.group(1)):
                    breaches.append(f'{os.path.relpath(path, root)}:{number}: <{m.group(1)}> outside {JOB_HELPER}: '
                                    f'app/ runs no job of its own (the model\'s, or a LatestJob)')
        if path.startswith(os.path.join(root, 'tests', 'model') + os.sep):
            breaches += model_test_breaches(root, path, text, gui)
        if n > MAX_LINES:
            breaches.append(f'{os.path.relpath(path, root)}: {n} lines, more than {MAX_LINES}')
    return breaches, counted


def model_test_breaches(root, path, text, gui):
    """A model test names model/ headers, the test support's and its own; a widget or CLI header is another layer's."""
    found = []
    shown = os.path.relpath(path, root)
    for number, line in enumerate(text.split('\n'), 1):
        m = ANGLED.match(line)
        if m and m.group(1) in gui:
            found.append(f'{shown}:{number}: a model test includes the GUI header <{m.group(1)}> (tests/ui/ is for widgets)')
            continue
        m = QUOTED.match(line)
        if not m or GENERATED.search(m.group(1)):
            continue
        target = m.group(1)
        here = [os.path.join(root, 'model', target), os.path.join(root, 'tests', 'support', target),
                os.path.join(os.path.dirname(path), target), os.path.join(root, 'fuzz', target)]
        if any(os.path.exists(t) for t in here):
            continue
        layer = next((lib for lib in ('ui', 'app') if os.path.exists(os.path.join(root, lib, target))), None)
        if layer:
            found.append(f'{shown}:{number}: a model test includes {layer}/{target} (tests/{"ui" if layer == "ui" else "cli"}/ '
                         f'is for that layer)')
    return found


def plant(path, line_after, text):
    with open(path) as f:
        s = f.read()
    i = s.index(line_after) + len(line_after)
    with open(path, 'w') as f:
        f.write(s[:i] + '\n' + text + s[i:])


def copy_tree(root, tmp):
    for folder in ('model', 'ui', 'app', 'tests', 'bench', 'fuzz'):
        if os.path.isdir(os.path.join(root, folder)):
            shutil.copytree(os.path.join(root, folder), os.path.join(tmp, folder),
                            ignore=lambda d, names: [n for n in names if not SOURCE.search(n)
                                                     and not os.path.isdir(os.path.join(d, n))])


def self_test(root, qt_include_dir):
    """Each planted breach must be reported, and the clean tree must pass."""
    plants = [
        ('model/tree/CallTree.h', '#pragma once', '#include <QWidget>', 'GUI header <QWidget>'),
        ('model/diff/DiffTree.h', '#pragma once', '#include "flame/FlameView.h"', 'model/ includes ui/'),
        ('model/pprof/Profile.h', '#pragma once', '#include "tree/CallTree.h"', 'model/pprof/ includes model/tree/'),
        ('model/io/Prefault.h', '#pragma once', '#include "LoadJob.h"', 'the top of model/'),
        ('ui/flame/FlameView.h', '#pragma once', '#include "compare/DiffView.h"', 'ui/flame/ includes ui/compare/'),
        ('model/layout/FlameLayout.h', '#pragma once', '#include "CallTree.h"', 'includes carry the folder'),
        ('ui/flame/FlameView.h', '#pragma once', '#include <QtConcurrent/QtConcurrentRun>', 'outside ui/controls'),
        ('ui/compare/DiffView.h', '#pragma once', '#include <QFutureWatcher>', 'outside ui/controls'),
        ('app/Cli.h', '#pragma once', '#include <QtConcurrent>', 'outside ui/controls'),
        ('tests/model/tst_calltree.cpp', '// The call tree', '#include "flame/FlameView.h"', 'a model test includes ui/'),
        ('tests/model/tst_calltree.cpp', '// The call tree', '#include <QWidget>', 'a model test includes the GUI'),
    ]
    clean, _ = check(root, qt_include_dir)
    if clean:
        print('self-test: the tree itself has breaches:\n' + '\n'.join(clean))
        return 1
    failed = 0
    for path, after, text, expected in plants:
        with tempfile.TemporaryDirectory() as tmp:
            copy_tree(root, tmp)
            plant(os.path.join(tmp, path), after, text)
            found, _ = check(tmp, qt_include_dir)
            caught = [b for b in found if expected in b and b.startswith(path)]
            print(f'self-test: {text} in {path}: ' + ('caught: ' + caught[0] if caught else 'NOT CAUGHT'))
            failed += not caught
    with tempfile.TemporaryDirectory() as tmp:
        copy_tree(root, tmp)
        with open(os.path.join(tmp, 'model/io/Prefault.cpp'), 'a') as f:
            f.write('//\n' * (MAX_LINES + 1))
        found, _ = check(tmp, qt_include_dir)
        caught = [b for b in found if 'more than' in b and 'Prefault.cpp' in b]
        print('self-test: a file over the line limit: ' + ('caught' if caught else 'NOT CAUGHT'))
        failed += not caught
    total = len(plants) + 1
    print(f'self-test: {total - failed} of {total} planted breaches caught')
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument('--qt-include', default=None, help='the folder holding QtCore/, QtGui/, QtWidgets/')
    parser.add_argument('--self-test', action='store_true')
    a = parser.parse_args()
    qt = a.qt_include
    if not qt:
        qt = subprocess.run(['qmake6', '-query', 'QT_INSTALL_HEADERS'], capture_output=True, text=True).stdout.strip()
    if a.self_test:
        return self_test(a.root, qt)
    breaches, counted = check(a.root, qt)
    for b in breaches:
        print(b)
    if breaches:
        print(f'check_includes: {len(breaches)} breaches of the house rules (docs/architecture.md)')
        return 1
    print(f'check_includes: {counted} files of model/ and ui/ keep the layers')
    return 0


if __name__ == '__main__':
    sys.exit(main())
