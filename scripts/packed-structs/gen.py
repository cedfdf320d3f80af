#!/usr/bin/env python3
# Writes the probes of structs mixing floats and integers that the x86-64
# ABI packs into registers (docs/testing.md, "Packed structs"): for each
# layout, a_*: the struct by value to a helper that is not inlined; r_*:
# returned by value; b_*: both; g_*: copied whole between global arrays
# and read. Usage: gen.py OUTDIR
import os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
structs = {
 'fi': [('float','f'),('int','i')],
 'if': [('int','i'),('float','f')],
 'fss': [('float','f'),('short','n'),('short','m')],
 'ssf': [('short','n'),('short','m'),('float','f')],
 'cf': [('char','c'),('float','f')],
 'fc': [('float','f'),('char','c')],
 'fff': [('float','a'),('float','b'),('float','c')],
 'ff': [('float','a'),('float','b')],
 'df': [('double','d'),('float','f')],
 'fd': [('float','f'),('double','d')],
 'di': [('double','d'),('int','k')],
 'ffi': [('float','a'),('float','b'),('int','i')],
 'iff': [('int','i'),('float','a'),('float','b')],
 'fifi': [('float','a'),('int','i'),('float','b'),('int','j')],
 'ifff': [('int','i'),('float','a'),('float','b'),('float','c')],
 'ffff': [('float','a'),('float','b'),('float','c'),('float','e')],
 'fl': [('float','f'),('long','l')],
}
def init(name, fields, a, b):
    out=[]; k=1
    for t,n in fields:
        if t in ('float','double'):
            out.append(f'{name}.{n} = ({t})({a} * {b} + {k} * {a});')
        else:
            out.append(f'{name}.{n} = ({t})((int)({b} * 2) + {k});')
        k+=1
    return ' '.join(out)
def expr(name, fields):
    fl=[n for t,n in fields if t in ('float','double')]
    it=[n for t,n in fields if t not in ('float','double')]
    ints = '(1 + ' + ' + '.join(f'{name}.{n}' for n in it) + ')' if it else '1'
    return ' + '.join(f'{name}.{n} * {j+1}.0 * {ints}' for j,n in enumerate(fl))
for key, fields in structs.items():
    decl = 'typedef struct { ' + ' '.join(f'{t} {n};' for t,n in fields) + ' } S;\n'
    # argument by value
    open(f'{out}/a_{key}.c','w').write(decl + f'''__attribute__((noinline)) static double use(S s, double y) {{
  return ({expr('s', fields)}) * y;
}}
double f(const double *x) {{
  S s;
  {init('s', fields, 'x[0]', 'x[1]')}
  return use(s, x[2]) + use(s, x[0]);
}}
''')
    # result by value
    open(f'{out}/r_{key}.c','w').write(decl + f'''__attribute__((noinline)) static S make(double a, double b) {{
  S s;
  {init('s', fields, 'a', 'b')}
  return s;
}}
double f(const double *x) {{
  S s = make(x[0], x[1]);
  return ({expr('s', fields)}) * x[2];
}}
''')
    # both: a helper that takes and returns the struct (scale its floats)
    scale = ' '.join(f's.{n} *= (float)y;' if t=='float' else (f's.{n} *= y;' if t=='double' else f's.{n} += 1;') for t,n in fields)
    open(f'{out}/b_{key}.c','w').write(decl + f'''__attribute__((noinline)) static S scale(S s, double y) {{
  {scale}
  return s;
}}
double f(const double *x) {{
  S s;
  {init('s', fields, 'x[0]', 'x[1]')}
  S t = scale(s, x[2]);
  return {expr('t', fields)};
}}
''')
    # global array copies: whole-struct copies read back
    open(f'{out}/g_{key}.c','w').write(decl + f'''S table[4], out[4];
double f(const double *x) {{
  for (int k = 0; k < 4; ++k) {{
    S s;
    {init('s', fields, 'x[0]', '(x[1] + k)')}
    table[k] = s;
  }}
  for (int k = 0; k < 4; ++k)
    out[k] = table[3 - k];
  double r = 0;
  for (int k = 0; k < 4; ++k)
    r += ({expr('out[k]', fields)}) * x[2];
  return r;
}}
''')
