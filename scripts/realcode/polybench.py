#!/usr/bin/env python3
"""Differentiate the kernels of PolyBench/C 4.2 (unchanged) with adcc.

A check by hand on numerical code nobody on the team wrote (docs/testing.md,
"Real programs"); PolyBench is not in this repository.

    scripts/realcode/polybench.py POLYBENCH_DIR [--cc ADCC] [-O LEVEL ...]
                                  [--only NAME ...] [--keep DIR]

For each kernel whose DATA_TYPE is floating-point, a driver is written that
includes the benchmark's source (its main renamed), fills the kernel's
arrays with the benchmark's own init_array (arrays init_array does not set
get fixed values), and defines an objective of all the kernel's
floating-point inputs (scalars and every array element): run the kernel on
copies, return a fixed weighted sum of every array afterwards. The driver
checks the gradient (reverse mode, __enzyme_autodiff) and the tangent along
a fixed direction (forward mode, __enzyme_fwddiff) against each other and
against central differences, along that direction and for a few
coordinates. Exit status 0 when every kernel passes at every level (or is
reported as not differentiable at its inputs: differences that are not
finite, as for gramschmidt, whose later columns have no norm).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def parameters(source, prefix):
    """The parameter list of the first function named prefix* in source."""
    m = re.search(r'void\s+(' + prefix + r'\w*)\s*\(', source)
    if not m:
        return None, []
    i, depth, j = m.end(), 1, m.end()
    while depth:
        depth += {'(': 1, ')': -1}.get(source[j], 0)
        j += 1
    text = ' '.join(source[i:j - 1].split())
    items, depth, start = [], 0, 0
    for k, c in enumerate(text):
        depth += {'(': 1, ')': -1}.get(c, 0)
        if c == ',' and depth == 0:
            items.append(text[start:k].strip())
            start = k + 1
    items.append(text[start:].strip())
    return m.group(1), [parse(p) for p in items]


def parse(p):
    """('int', name) | ('scalar', name) | ('pointer', name) |
    ('array', name, [dims]) | ('other', text)."""
    m = re.match(r'DATA_TYPE\s+POLYBENCH_(\d)D\((.*)\)$', p)
    if m:
        args = [a.strip() for a in m.group(2).split(',')]
        rank = int(m.group(1))
        return ('array', args[0], args[1:1 + rank])
    m = re.match(r'int\s+(\w+)$', p)
    if m:
        return ('int', m.group(1))
    m = re.match(r'DATA_TYPE\s*\*\s*(\w+)$', p)
    if m:
        return ('pointer', m.group(1))
    m = re.match(r'DATA_TYPE\s+(\w+)$', p)
    if m:
        return ('scalar', m.group(1))
    return ('other', p)


def driver(bench, kernel, kparams, iparams):
    """The C source of the driver for one benchmark."""
    arrays = [p for p in kparams if p[0] == 'array']
    scalars = [p for p in kparams if p[0] == 'scalar']
    size = {a[1]: '(' + '*'.join('(size_t)(%s)' % d for d in a[2]) + ')'
            for a in arrays}
    out = []
    w = out.append
    w('#define main polybench_original_main')
    w('#include "%s.c"' % bench)
    w('#undef main')
    w('#include "check_polybench.h"')
    total = ' + '.join([str(len(scalars))] + [size[a[1]] for a in arrays])
    w('#define PB_INPUTS ((size_t)(%s))' % total)
    w('static double weights[PB_INPUTS];')
    w('static double objective(const double *x) {')
    w('  size_t o = 0;')
    for s in scalars:
        w('  DATA_TYPE s_%s = (DATA_TYPE)x[o++];' % s[1])
    for a in arrays:
        w('  DATA_TYPE *a_%s = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * %s);'
          % (a[1], size[a[1]]))
        w('  for (size_t i = 0; i < %s; ++i) a_%s[i] = (DATA_TYPE)x[o + i];'
          % (size[a[1]], a[1]))
        w('  o += %s;' % size[a[1]])
    call = []
    for p in kparams:
        if p[0] == 'int':
            call.append(p[1].upper())
        elif p[0] == 'scalar':
            call.append('s_' + p[1])
        else:
            call.append('(void *)a_' + p[1])
    w('  %s(%s);' % (kernel, ', '.join(call)))
    w('  double r = 0;')
    w('  size_t k = 0;')
    for a in arrays:
        w('  for (size_t i = 0; i < %s; ++i) r += weights[k++] * a_%s[i];'
          % (size[a[1]], a[1]))
    for a in arrays:
        w('  free(a_%s);' % a[1])
    w('  return r;')
    w('}')
    w('int main(void) {')
    w('  static double x[PB_INPUTS];')
    w('  for (size_t i = 0; i < PB_INPUTS; ++i) {')
    w('    weights[i] = sin(0.37 * (double)i + 1.0);')
    w('    x[i] = 0.5 + 0.25 * sin(0.11 * (double)i);')
    w('  }')
    # The benchmark's own values, where its init_array sets them.
    init_names = {p[1] for p in iparams if p[0] in ('array', 'pointer')}
    for p in iparams:
        if p[0] == 'pointer':
            w('  DATA_TYPE i_%s = 0;' % p[1])
        elif p[0] == 'array':
            dims = '*'.join('(size_t)(%s)' % d for d in p[2])
            w('  DATA_TYPE *i_%s = (DATA_TYPE *)calloc(%s, sizeof(DATA_TYPE));'
              % (p[1], dims))
    if iparams:
        args = []
        for p in iparams:
            if p[0] == 'int':
                args.append(p[1].upper())
            elif p[0] == 'pointer':
                args.append('&i_' + p[1])
            else:
                args.append('(void *)i_' + p[1])
        w('  init_array(%s);' % ', '.join(args))
    w('  size_t o = 0;')
    for s in scalars:
        if s[1] in init_names:
            w('  x[o] = i_%s;' % s[1])
        w('  ++o;')
    for a in arrays:
        if a[1] in init_names:
            w('  for (size_t i = 0; i < %s; ++i) x[o + i] = i_%s[i];'
              % (size[a[1]], a[1]))
        w('  o += %s;' % size[a[1]])
    w('  return check_polybench("%s", objective, x, PB_INPUTS,' % bench)
    w('                         sizeof(DATA_TYPE) == sizeof(float));')
    w('}')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('polybench')
    ap.add_argument('--cc', default=os.path.join(HERE, '../../build/bin/adcc'))
    ap.add_argument('-O', dest='levels', action='append')
    ap.add_argument('--only', action='append')
    ap.add_argument('--keep')
    args = ap.parse_args()
    levels = args.levels or ['2']
    root = os.path.abspath(args.polybench)
    util = os.path.join(root, 'utilities')
    work = args.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    sources = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith('.c') and dirpath != util:
                sources.append(os.path.join(dirpath, f))
    failures, rows = 0, []
    for src in sorted(sources):
        bench = os.path.basename(src)[:-2]
        if args.only and bench not in args.only:
            continue
        if not os.path.exists(src[:-2] + '.h'):
            continue  # (a file beside the benchmarks: Nussinov.orig.c)
        text = open(src).read()
        header = open(src[:-2] + '.h').read()
        if 'define DATA_TYPE_IS_INT' in header:
            print('%-22s %s' % (bench, 'integer data: not differentiated'))
            continue
        kernel, kparams = parameters(text, 'kernel_')
        _, iparams = parameters(text, 'init_array')
        if any(p[0] in ('other', 'pointer') for p in kparams):
            print('%-22s %s' % (bench, 'parameters not understood: SKIPPED'))
            failures += 1
            continue
        path = os.path.join(work, 'drive_%s.c' % bench)
        with open(path, 'w') as f:
            f.write(driver(bench, kernel, kparams, iparams))
        for level in levels:
            exe = os.path.join(work, '%s-O%s' % (bench, level))
            cmd = [args.cc, '-O' + level, '-DMINI_DATASET', '-w',
                   '-I' + util, '-I' + os.path.dirname(src), '-I' + HERE,
                   path, os.path.join(util, 'polybench.c'), '-o', exe, '-lm']
            built = subprocess.run(cmd, capture_output=True, text=True)
            if built.returncode != 0:
                first = (built.stderr.strip().splitlines() or ['?'])[0]
                rows.append((bench + ' -O' + level, 'compile: ' + first))
                failures += 1
                continue
            try:
                ran = subprocess.run([exe], capture_output=True, text=True,
                                     timeout=300)
                status, output = ran.returncode, ran.stdout.strip()
            except subprocess.TimeoutExpired:
                status, output = 1, 'timed out'
            last = (output.splitlines() or ['(no output)'])[-1]
            rows.append((bench + ' -O' + level, last))
            if status not in (0, 77):  # 77: singular there, not checked
                failures += 1
                sys.stdout.write(output + '\n')
        for r in rows[-len(levels):]:
            print('%-22s %s' % r, flush=True)
    print('%d failure(s)' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
