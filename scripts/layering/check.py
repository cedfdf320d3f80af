#!/usr/bin/env python3
"""Checks that includes follow adcc's layering (scripts/layering/stages.txt).

Two rules, both read from the table:
  * inside adcore/lib/, a file includes headers of its own stage or of an
    earlier one, never of a later stage;
  * a module includes only the modules its row names, and never another
    module's private headers.

Usage: check.py [--root DIR] [--table FILE]
Exit status 0 when every include follows the table, 1 with one line per
include that does not (file:line: what crosses which boundary), 2 when the
table itself is malformed.
"""

import argparse
import os
import re
import sys

SOURCE_SUFFIXES = ('.c', '.cpp', '.h', '.hpp', '.def', '.inc')
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
LIB = 'adcore/lib'
PUBLIC = 'adcore/include/adcore'
# The first part of an included path, as the module rows name it.
ROOTS = {'adcore': 'adcore', 'frontend': 'frontend', 'driver': 'driver',
         'clang': 'clang', 'clang-c': 'clang', 'llvm': 'llvm',
         'llvm-c': 'llvm', 'adcc_runtime.h': 'runtime'}


class Table:
    def __init__(self, path):
        self.path = path
        self.stages = []
        self.public = {}
        self.modules = {}
        self.private = {}
        self.shared = set()
        self.top = set()
        self.errors = []
        with open(path) as f:
            for n, line in enumerate(f, 1):
                self._row(n, line.split('#', 1)[0].split())

    def _row(self, n, words):
        if not words:
            return
        kind, args = words[0], words[1:]
        if kind == 'stage' and len(args) == 1:
            self.stages.append(args[0])
        elif kind == 'public' and len(args) == 2:
            self.public[args[0]] = args[1]
        elif kind == 'module' and len(args) >= 1:
            self.modules[args[0]] = set(args[1:])
        elif kind == 'top' and len(args) == 1:
            self.top.add(args[0])
        elif kind == 'shared' and len(args) == 1:
            self.shared.add(args[0])
        elif kind == 'private' and len(args) == 2:
            self.private.setdefault(args[0], set()).add(args[1])
        else:
            self.errors.append('%s:%d: cannot read the row %r' %
                               (self.path, n, ' '.join(words)))

    def rank(self, stage):
        return self.stages.index(stage) if stage in self.stages else None


def source_files(root, top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def includes(root, path):
    with open(os.path.join(root, path), errors='replace') as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1), m.group(2)


def shown(stage):
    return 'the top of adcore/lib' if stage == '.' else stage + '/'


def stage_of_lib_file(path):
    """The stage folder of a file under adcore/lib/ ('.' at the top)."""
    rest = os.path.relpath(path, LIB)
    return os.path.dirname(rest) or '.'


class Checker:
    def __init__(self, root, table):
        self.root = root
        self.table = table
        self.problems = []
        self.sources_by_name = {}
        for f in source_files(root, LIB):
            base = os.path.splitext(os.path.basename(f))[0]
            if f.endswith('.cpp'):
                self.sources_by_name[base] = stage_of_lib_file(f)

    def folders(self):
        return '%s/{%s}' % (LIB, ','.join(s for s in self.table.stages
                                          if s != '.'))

    def report(self, where, message):
        self.problems.append('%s: %s' % (where, message))

    def stage_of_public(self, header):
        if header in self.table.public:
            return self.table.public[header]
        return self.sources_by_name.get(os.path.splitext(header)[0])

    def resolve(self, includer, quote, spelled):
        """The repository path an include names, or None (system, LLVM)."""
        if quote != '"':
            return None
        here = os.path.normpath(os.path.join(os.path.dirname(includer),
                                             spelled))
        if os.path.exists(os.path.join(self.root, here)):
            return here
        if includer.startswith(LIB + '/'):
            private = os.path.normpath(os.path.join(LIB, spelled))
            if os.path.exists(os.path.join(self.root, private)):
                return private
        if spelled.startswith('adcore/'):
            public = os.path.join('adcore/include', spelled)
            if os.path.exists(os.path.join(self.root, public)):
                return public
        return None

    def module_of(self, path):
        best = None
        for m in self.table.modules:
            if path == m or path.startswith(m + '/'):
                if best is None or len(m) > len(best):
                    best = m
        return best

    def check_stage(self, where, includer, target):
        """An include of an adcore header from a file of adcore/lib/."""
        from_stage = stage_of_lib_file(includer)
        if target.startswith(LIB + '/'):
            if os.path.relpath(target, LIB) in self.table.shared:
                return
            to_stage = stage_of_lib_file(target)
            what = '%s (%s)' % (os.path.relpath(target, LIB), shown(to_stage))
        elif target.startswith(PUBLIC + '/'):
            header = os.path.basename(target)
            to_stage = self.stage_of_public(header)
            if to_stage is None:
                self.report(where, 'the public header adcore/%s has no '
                            'stage: add a `public %s STAGE` row to %s' %
                            (header, header, self.table.path))
                return
            what = 'adcore/%s (%s)' % (header, shown(to_stage))
        else:
            return
        from_rank = self.table.rank(from_stage)
        to_rank = self.table.rank(to_stage)
        if from_rank is None or to_rank is None:
            return  # reported once per file as "not in a stage folder"
        if to_rank > from_rank:
            self.report(where, '%s includes %s, a later stage: an early '
                        'stage must not depend on a later one (the `stage` '
                        'rows of %s)' % (shown(from_stage), what,
                                         self.table.path))

    def check_module(self, where, includer, module, quote, spelled, target):
        allowed = self.table.modules[module]
        if target is not None:
            owner = self.module_of(target)
            if target.startswith(PUBLIC + '/'):
                owner = 'adcore'
            if owner == module or owner is None:
                return
            public_dir = os.path.join(owner, 'include') + '/'
            if target.startswith(public_dir) or target == 'runtime/include/adcc_runtime.h':
                kind = ROOTS.get(spelled.split('/', 1)[0])
                if kind in allowed:
                    return
                self.report(where, '%s includes %s of %s, which its '
                            '`module %s` row does not allow' %
                            (module, spelled, owner, module))
                return
            if any(target.startswith(d + '/')
                   for d in self.table.private.get(module, ())):
                return
            self.report(where, '%s reaches into a private header of %s: '
                        '%s (include the public headers of %s/include/ '
                        'instead)' % (module, owner, target, owner))
            return
        kind = ROOTS.get(spelled.split('/', 1)[0])
        if kind is None or kind == module:
            return
        if kind not in allowed:
            self.report(where, '%s includes %s: %s must not depend on %s '
                        '(its `module %s` row in %s)' %
                        (module, spelled, module, kind, module,
                         self.table.path))

    def run(self):
        known = set(self.table.stages)
        for module in sorted(self.table.modules):
            if not os.path.isdir(os.path.join(self.root, module)):
                self.report(self.table.path, 'the module %s/ does not '
                            'exist' % module)
                continue
            for f in source_files(self.root, module):
                in_lib = f.startswith(LIB + '/')
                stage = stage_of_lib_file(f) if in_lib else None
                if stage == '.' and os.path.basename(f) not in self.table.top:
                    self.report(f, 'not in a stage folder: move it into one '
                                'of %s, or add a `top %s` row to %s if it '
                                'is a pass that drives the stages' %
                                (self.folders(), os.path.basename(f),
                                 self.table.path))
                elif in_lib and stage not in known:
                    self.report(f, 'not in a stage folder: move it into one '
                                'of %s, or add its folder as a `stage` row '
                                'of %s' % (self.folders(), self.table.path))
                for n, quote, spelled in includes(self.root, f):
                    where = '%s:%d' % (f, n)
                    target = self.resolve(f, quote, spelled)
                    self.check_module(where, f, module, quote, spelled,
                                      target)
                    if in_lib and target is not None:
                        self.check_stage(where, f, target)
        for header in sorted(os.listdir(os.path.join(self.root, PUBLIC))):
            path = os.path.join(PUBLIC, header)
            for n, quote, spelled in includes(self.root, path):
                target = self.resolve(path, quote, spelled)
                if target is not None and target.startswith(LIB + '/'):
                    self.report('%s:%d' % (path, n), 'a public header '
                                'includes the private header %s' % target)
        return self.problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--root', default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument('--table', default=None)
    args = parser.parse_args()
    table_path = args.table or os.path.join(args.root, 'scripts', 'layering',
                                            'stages.txt')
    table = Table(table_path)
    table.path = os.path.relpath(table_path, args.root)
    if table.errors:
        print('\n'.join(table.errors), file=sys.stderr)
        return 2
    problems = Checker(args.root, table).run()
    for p in problems:
        print('error: ' + p)
    if problems:
        print('%d problem(s) with the layering; the table is %s' %
              (len(problems), table.path))
        return 1
    print('layering: every include follows %s' % table.path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
