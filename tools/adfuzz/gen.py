#!/usr/bin/env python3
"""adfuzz program generator: random differentiable C programs.

    gen.py --seed N [-o FILE]

Writes one self-contained C program, determined by N alone (and by
GENERATOR_VERSION below), that checks adcc's derivatives of a random function

    static double f(double *x, double s, int n, double *out)   (or void)

(since version 6 sometimes with a fifth parameter double *st, a constant
state passed enzyme_const that f overwrites and reads back; since version
14 sometimes with a last parameter struct adfz_ws *ws, passed enzyme_dup
with a shadow struct the caller zeroes, whose pointer's data f overwrites
with values that have derivatives and reads back; since version 15
sometimes with a last parameter struct adfz_cells *cl, passed enzyme_dup
with a shadow struct whose integer table of counts is the primal's own,
filled as CoMD's putAtomInBox does, `cl->cnt[b]++` after a conditional
counter of local entries; since version 17, in half of those, the values
written through an untyped `void *` copy of the values' pointer and moved
between cells by a noinline helper that memcpy's a double through it, as
CoMD's copyAtom with `void *r`; since version 19, in some of those, the
helper indexes the `void *` by bytes (a `char *` cast or cursor, a
memmove) and f writes the values through it, through the other field
`double *v` (the same memory: the copy is then a located error, whose
adjoint was lost at -O1..-O3 with -fno-strict-aliasing until 2026-12-06;
scripts/adfuzz.sh counts it as unsupported) or through both)
against each other and against central finite differences. The function
mixes straight-line arithmetic with math functions on safe domains, loops
with constant, int-argument and data-dependent trip counts, branches, local
and heap arrays, pointer arithmetic, in-place updates (of locals and of the
input x itself), calls to generated helpers (directly, through a constant
table of function pointers and through a function-pointer argument) and a
recursive helper whose depth comes from the int argument.

The program's main (see MAIN_TEMPLATE) evaluates the scalar objective
L = f(x, s, n, out) + sum_j w[j] * out[j] and compares
  * the gradient of L by reverse mode (__enzyme_autodiff, one call),
  * the gradient by forward mode (__enzyme_fwddiff, one call per input),
  * central finite differences of L, and of every out[j] and of the return
    value against the forward-mode Jacobian columns,
  * (since version 12) the forward-mode columns by batched calls
    (enzyme_width 2, two inputs per call, lane by lane against the width-1
    columns),
  * (since version 16, in half of the programs, drawn last) the gradient by
    split mode (__enzyme_augmentfwd, then __enzyme_reverse given its tape)
    against the one call's,
  * (since version 18, drawn after that) the forward-mode columns by split
    forward mode (__enzyme_augmentfwd, then __enzyme_fwdsplit given its
    tape; where version 16's split check is not drawn) against the one
    call's, and the diagonal of the Hessian by forward mode over forward
    mode (each with the struct of version 14 given a zeroed shadow at
    every level) against central differences of the forward-mode column,
  * (since version 20) the same checks of programs whose reduction helper
    is, in half of those that have one, an OpenMP parallel loop with
    reduction(+) (compile with -fopenmp; without it the pragma is ignored
    and the loop is the same sum, in order),
  * (since version 21, drawn after all else, in 60% of the programs with
    the Hessian by forward over reverse and without cells or an OpenMP
    loop) the Hessian's columns by reverse mode over forward mode
    (__enzyme_autodiff of L's forward-mode derivative in direction e_i,
    with local shadows of the state and the structs: the zeroed struct's
    pointer has a null shadow in the inner call) against forward over
    reverse,
  * (since version 22) a double's bits
    given a new exponent, `b += (unsigned long long)K << 52` (the value
    scaled by 2^K, as fdlibm's scalbn writes it),
  * (since version 23) the recursive helper, in half of the programs,
    calling itself first with its scalar parameter unchanged, and some of
    its calls given a constant scalar (a literal the optimizer folds into
    the body, beside calls with an active one),
  * (since version 24, tools/adfuzz/gen_v24.py) state kept as numerical
    codes keep it: a global accumulator with a derivative (and a global
    struct tallying a count, a sum and a sum of squares), a struct of
    arrays passed by pointer to step and sum functions, a table of
    operations (function pointer and weight) applied by an interpreter
    loop,
  * (since version 25) where a double's
    bits are drawn, sometimes a local buffer whose bytes hold a pointer
    to an array, then a double, each written and read by functions that
    are not inlined (feature byte-reuse),
  * (since version 26) sometimes the other order there: the double
    written and read back, then the pointer stored over its bytes from
    the fifth on (a packed struct's member; feature
    byte-reuse-double-first),
  * (since version 29, tools/adfuzz/gen_v29.py) memory reused for
    records of other types: a pool of blocks with a free list (links a
    union's member, a `void *` at a block's start or at its byte 4)
    whose blocks hold doubles, records with a pointer, a double's bits
    through an unsigned long long, or nodes, over the links, stored
    inline or by callees through their parameters; nodes linked by f or
    by a callee and walked by a function that is not inlined; tables of
    pointers to rows (double **) whose bytes are then reused for doubles,
  * the primal outputs computed inside the derivative calls against a plain
    call of f, unless (in half of the programs, drawn last so that the
    function is the one of version 3) out is passed enzyme_dupnoneed, whose
    primal values adcc may skip: then only the derivatives are compared.
It prints the primal and the derivatives (for -O0 / -O2 comparison by
scripts/adfuzz.sh), one "MISMATCH ..." line per disagreement, and exits 1 on
any mismatch, 0 otherwise.

Every value is kept bounded by construction: each variable and array has a
cap, and a value stored into it whose bound exceeds the cap is squashed
(C * tanh(e / C) and similar). Square roots, logarithms and powers only see
positive arguments (c + e * e), exp/sinh/cosh only bounded arguments.
Branches on floating-point values record their outcome in an integer trace
(adfz_br); main picks a test point at which no coordinate's perturbation
changes the trace, so the function is smooth where it is differenced.

Only the Python standard library is used, and only random.Random.random()
(whose sequence is stable across Python versions), so a seed gives the same
program everywhere.
"""

import argparse
import math
import random
import sys

from gen_v24 import V24
from gen_v29 import V29

# (Version 26 adds a double and then a pointer over its bytes; 27 a
# solver's workspace block, with version 26's constructs otherwise; 28
# pointers made from integers; 29 memory reused for records of other
# types, nodes, tables of rows: gen_v29.py.)
GENERATOR_VERSION = 29
# The versions gen.py can still write (--version): a seed's program of an
# older version is the same as that version wrote, so the regression seeds
# chosen for it keep their meaning.
OLDEST_VERSION = 4

NMAX = 5          # the int argument n is in [1, NMAX]
ABOUND = 20.0     # arrays read by helpers never exceed this
HELPER_ARG = 4.0  # scalar helper parameters are bounded by this
STATE_CAP = 2.0   # the constant state's elements (version 6)
SQUASH_AT = 20.0  # expressions whose bound exceeds this are squashed


def lit(v):
    """A double literal."""
    s = "%.4g" % v
    if "e" not in s and "." not in s and "inf" not in s and "nan" not in s:
        s += ".0"
    return s


class E:
    """An expression: C text, a bound on its magnitude, whether it is free
    of calls (so that it may be evaluated twice)."""

    __slots__ = ("code", "bound", "simple")

    def __init__(self, code, bound, simple=True):
        self.code = code
        self.bound = bound
        self.simple = simple


class Arr:
    """An array (or a pointer into one): name, length, cap, writable."""

    def __init__(self, name, length, cap, writable, root=None):
        self.name = name
        self.length = length
        self.cap = cap
        self.writable = writable
        self.root = root or self


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.scalars = []   # (name, cap, writable)
        self.arrays = []    # Arr
        self.idx = []       # (name, lo, hi): ints with values in [lo, hi)
        self.fptrs = []     # names of function-pointer parameters

    def all(self, attr):
        out = []
        s = self
        while s is not None:
            out.extend(getattr(s, attr))
            s = s.parent
        return out


class Ctx:
    """Where a statement is generated: loop depth, whether break is allowed,
    and how much nesting is left."""

    def __init__(self, depth=0, in_loop=False, loops=0):
        self.depth = depth
        self.in_loop = in_loop
        self.loops = loops


class Gen(V24, V29):
    def __init__(self, seed, version=GENERATOR_VERSION):
        self.rng = random.Random(seed)
        self.seed = seed
        self.version = version
        self.counter = 0
        self.out = []           # lines of the program
        self.scalar_helpers = []  # (name, ret bound)
        self.array_helpers = []   # names: void g(double *v, int m, double c)
        self.reduce_helpers = []  # (name, ret bound): double r(const double *v, int m)
        self.rec_helpers = []     # (name, ret bound, plen): double r(double, const double *, int)
        self.tables = []          # (name, size)
        self.apply_helpers = []   # (name, ret bound)
        self.features = set()
        self.used = set()         # helpers called from f
        self.nx = 0               # length of x, once f is generated
        self.xcap = 1.5
        # version 5
        self.restrict_helpers = []  # names: void g(double *restrict v,
                                    #   const double *restrict w, int m, double c)
        self.tied = []            # (i, j): x[j] == x[i] at the test point
        self.fill_helper = None   # a noinline function filling a table
        # version 6
        self.nst = 0              # length of st, a constant (enzyme_const)
                                  # state f overwrites and reads back
        self.st_helper = None     # a noinline function updating st in place
        # version 13
        self.loop_helper = None   # a noinline function called in do-while
                                  # loops (made at its first call)
        # version 14
        self.nws = 0              # length of ws->p, data behind a null
                                  # shadow pointer (a zeroed shadow struct)
        # version 15
        self.ncl = 0              # values put into cl's cells, whose count
                                  # table the shadow struct shares
        # version 17
        self.cl_void = False      # cl->vr: the values as a void *, written
                                  # through and moved by adfz_cl_move
        # version 19
        self.cl_bytes = None      # adfz_cl_move indexes cl->vr by bytes:
                                  # "char", "cursor" or "memmove"
        self.cl_writes = "vr"     # f writes the values through cl->vr,
                                  # cl->v (the same memory) or both
        # version 20
        self.pure = False         # expressions without branches or calls
                                  # (an OpenMP loop's body: the branch
                                  # trace and call counter are not shared)
        # version 24 (gen_v24.py)
        self.v24_init()
        # version 28
        self.int_pointer_helper = None  # a noinline function reading an
                                        # array through an unsigned long
        # version 29 (gen_v29.py)
        self.v29_init()

    # -- randomness (only random() so that sequences are version-stable) --
    def rand(self):
        return self.rng.random()

    def chance(self, p):
        return self.rand() < p

    def randint(self, a, b):
        return a + min(int(self.rand() * (b - a + 1)), b - a)

    def choice(self, seq):
        return seq[self.randint(0, len(seq) - 1)]

    def uniform(self, a, b):
        return a + (b - a) * self.rand()

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    # -- expressions -------------------------------------------------------
    def squash(self, e, cap):
        """e bounded by cap (unchanged if it already is)."""
        if e.bound <= cap:
            return e
        c = lit(cap)
        k = self.randint(0, 4)
        if k == 0:
            return E("%s * tanh((%s) / %s)" % (c, e.code, c), cap, e.simple)
        if k == 1:
            return E("%s * sin((%s) / %s)" % (c, e.code, c), cap, e.simple)
        if k == 2:
            return E("%s * erf((%s) / %s)" % (c, e.code, c), cap, e.simple)
        if k == 3:
            return E("%s * atan((%s) / %s)" % (lit(cap / 1.5708), e.code, c),
                     cap, e.simple)
        return E("tanh(%s)" % e.code, 1.0, e.simple)

    def index(self, sc, arr, allow_prev=True):
        """An index expression valid for arr: a constant, a loop index or an
        int reduced modulo the length."""
        opts = []
        for (name, lo, hi) in sc.all("idx"):
            if lo >= 0 and hi <= arr.length:
                opts.append(name)
                if allow_prev and lo >= 1:
                    opts.append("%s - 1" % name)
            elif lo >= 0:
                opts.append("%s %% %d" % (name, arr.length))
                opts.append("(%s + %d) %% %d" % (name, self.randint(1, 3),
                                                  arr.length))
        if not opts or self.chance(0.3):
            return str(self.randint(0, arr.length - 1))
        return self.choice(opts)

    def leaf(self, sc):
        scal = sc.all("scalars")
        arrs = sc.all("arrays")
        k = self.rand()
        if k < 0.35 and scal:
            name, cap, _ = self.choice(scal)
            return E(name, cap)
        if k < 0.75 and arrs:
            a = self.choice(arrs)
            return E("%s[%s]" % (a.name, self.index(sc, a)), a.cap)
        if k < 0.82:
            idx = sc.all("idx")
            if idx:
                name, lo, hi = self.choice(idx)
                return E("(double)%s" % name, float(max(abs(lo), abs(hi))))
        if k < 0.9 and scal:
            name, cap, _ = self.choice(scal)
            return E(name, cap)
        v = self.uniform(-2, 2)
        return E(lit(v), abs(v) + 1e-3)

    def expr(self, sc, depth):
        if depth <= 0 or self.chance(0.25):
            return self.leaf(sc)
        k = self.rand()
        if k < 0.38:
            return self.binary(sc, depth)
        if k < 0.78 or self.pure:
            return self.unary(sc, depth)
        if k < 0.86:
            return self.kinked(sc)
        if k < 0.97:
            c = self.call(sc, depth)
            if c is not None:
                return c
        a = self.expr(sc, depth - 1)
        b = self.expr(sc, depth - 1)
        cond = self.cond(sc, 0)
        return E("(%s ? %s : %s)" % (cond, a.code, b.code),
                 max(a.bound, b.bound), False)

    def binary(self, sc, depth):
        a = self.squash(self.expr(sc, depth - 1), SQUASH_AT)
        b = self.squash(self.expr(sc, depth - 1), SQUASH_AT)
        simple = a.simple and b.simple
        k = self.randint(0, 5)
        if k == 0:
            return E("(%s + %s)" % (a.code, b.code), a.bound + b.bound, simple)
        if k == 1:
            return E("(%s - %s)" % (a.code, b.code), a.bound + b.bound, simple)
        if k in (2, 3):
            return E("(%s * %s)" % (a.code, b.code), a.bound * b.bound, simple)
        if k == 4:
            c = self.uniform(0.5, 2)
            b = self.squash(b, 10.0)
            return E("(%s / (%s + %s * %s))" % (a.code, lit(c), b.code, b.code),
                     a.bound / c, simple)
        c = self.uniform(-1.5, 1.5)
        return E("(%s * %s)" % (lit(c), a.code), abs(c) * a.bound, a.simple)

    def unary_of(self, a):
        """A math function of the expression a."""
        sc = Scope()
        sc.scalars.append((a.code, a.bound, False))
        return self.unary(sc, 1, a)

    def unary(self, sc, depth, arg=None):
        a = self.squash(arg or self.expr(sc, depth - 1), SQUASH_AT)
        B = a.bound
        x = a.code
        s = a.simple
        c = self.uniform(0.5, 2.0)
        k = self.randint(0, 22)
        self.features.add("math")
        if k in (0, 1):
            return E("sin(%s)" % x, 1.0, s)
        if k == 2:
            return E("cos(%s)" % x, 1.0, s)
        if k == 3:
            return E("tanh(%s)" % x, 1.0, s)
        if k == 4:
            if B > 3:
                return E("exp(tanh(%s))" % x, math.e, s)
            return E("exp(%s)" % x, math.exp(B), s)
        if k == 5:
            return E("log(%s + %s * %s)" % (lit(c), x, x),
                     max(abs(math.log(c)), math.log(c + B * B)), s)
        if k == 6:
            return E("sqrt(%s + %s * %s)" % (lit(c), x, x),
                     math.sqrt(c + B * B), s)
        if k == 7:
            p = self.choice([0.5, 1.5, -0.5, 0.3, 2.5, -1.5])
            if p > 0:
                bound = (c + B * B) ** p
            else:
                bound = c ** p
            return E("pow(%s + %s * %s, %s)" % (lit(c), x, x, lit(p)), bound, s)
        if k == 8:
            p = self.choice([2.0, 3.0])
            return E("pow(%s, %s)" % (x, lit(p)), B ** p, s)
        if k == 9:
            b = self.squash(self.expr(sc, depth - 1), 2.0)
            return E("pow(%s + tanh(%s), %s)" % (lit(1.2 + c / 4), x, b.code),
                     (2.2 + c / 4) ** b.bound, s and b.simple)
        if k == 10:
            return E("atan(%s)" % x, 1.5708, s)
        if k == 11:
            return E("asin(0.9 * tanh(%s))" % x, 1.5708, s)
        if k == 12:
            return E("acos(0.9 * sin(%s))" % x, 3.1416, s)
        if k == 13:
            b = self.squash(self.expr(sc, depth - 1), SQUASH_AT)
            return E("atan2(%s, %s + %s * %s)" % (x, lit(c), b.code, b.code),
                     3.1416, s and b.simple)
        if k == 14:
            b = self.squash(self.expr(sc, depth - 1), SQUASH_AT)
            return E("hypot(%s, %s + %s * %s)" % (x, lit(c), b.code, b.code),
                     B + c + b.bound ** 2, s and b.simple)
        if k == 15:
            return E("erf(%s)" % x, 1.0, s)
        if k == 16:
            if B > 3:
                x = "tanh(%s)" % x
                B = 1.0
            return E(self.choice(["sinh", "cosh"]) + "(%s)" % x,
                     math.cosh(B), s)
        if k == 17:
            if B > 3:
                x = "tanh(%s)" % x
                B = 1.0
            return E("expm1(%s)" % x, math.exp(B), s)
        if k == 18:
            return E("log1p(%s * %s)" % (x, x), math.log1p(B * B), s)
        if k == 19:
            return E("cbrt(%s + %s * %s)" % (lit(c), x, x),
                     (c + B * B) ** (1 / 3), s)
        if k == 20:
            return E("tan(0.6 * tanh(%s))" % x, 0.7, s)
        if k == 21:
            return E("(%s * %s)" % (x, x), B * B, s)
        return E("(-(%s))" % x, B, s)

    def kinked(self, sc):
        """fabs / fmax / fmin of call-free operands; the side taken is
        recorded in the branch trace."""
        a = self.squash(self.expr(sc, 1), SQUASH_AT)
        if not a.simple:
            a = self.leaf(sc)
        k = self.randint(0, 2)
        self.features.add("kink")
        if k == 0:
            return E("(adfz_br(%s > 0), fabs(%s))" % (a.code, a.code), a.bound)
        b = self.squash(self.expr(sc, 1), SQUASH_AT)
        if not b.simple:
            b = self.leaf(sc)
        fn = "fmax" if k == 1 else "fmin"
        return E("(adfz_br(%s > %s), %s(%s, %s))" % (a.code, b.code, fn,
                                                    a.code, b.code),
                 max(a.bound, b.bound))

    def call(self, sc, depth):
        opts = []
        if self.scalar_helpers:
            opts.append("scalar")
        if self.tables:
            opts.append("table")
        if self.apply_helpers:
            opts.append("apply")
        if sc.all("fptrs"):
            opts.append("fptr")
        if self.reduce_helpers and sc.all("arrays"):
            opts.append("reduce")
        if self.rec_helpers and sc.all("arrays"):
            opts.append("rec")
        if not opts:
            return None
        k = self.choice(opts)
        return self.call_kind(sc, depth, k)

    def call_kind(self, sc, depth, k, target=None):
        """A call of kind k (of the helper target if given)."""
        a = self.squash(self.expr(sc, depth - 1), HELPER_ARG)
        b = self.squash(self.expr(sc, depth - 1), HELPER_ARG)
        if k == "scalar":
            name, bound = target or self.choice(self.scalar_helpers)
            self.used.add(name)
            self.features.add("call")
            return E("%s(%s, %s)" % (name, a.code, b.code), bound, False)
        if k == "table":
            name, size, bound = target or self.choice(self.tables)
            self.used.add(name)
            sel = self.int_expr(sc, size)
            self.features.add("fptr-table")
            return E("%s[%s](%s, %s)" % (name, sel, a.code, b.code), bound,
                     False)
        if k == "apply":
            name, bound = target or self.choice(self.apply_helpers)
            self.used.add(name)
            fn, _ = self.choice(self.scalar_helpers)
            self.features.add("fptr-arg")
            return E("%s(%s, %s, %s)" % (name, fn, a.code, b.code), bound,
                     False)
        if k == "fptr":
            fp = self.choice(sc.all("fptrs"))
            return E("%s(%s, %s)" % (fp, a.code, b.code), HELPER_BOUND, False)
        if k == "reduce":
            name, bound = target or self.choice(self.reduce_helpers)
            self.used.add(name)
            arr = self.choice(sc.all("arrays"))
            m = self.randint(1, arr.length)
            self.features.add("call")
            return E("%s(%s, %d)" % (name, arr.name, m), bound, False)
        name, bound, plen = target or self.choice(self.rec_helpers)
        arrs = [x for x in sc.all("arrays") if x.length >= plen]
        if not arrs:
            return None
        self.used.add(name)
        arr = self.choice(arrs)
        if self.version >= 23 and self.chance(0.4):
            # a constant scalar (version 23), folded into the helper
            a = E(lit(self.uniform(-HELPER_ARG / 2, HELPER_ARG / 2)),
                  HELPER_ARG / 2)
            self.features.add("recursion-const")
        depth_arg = self.choice(["n", "n %% %d + 1" % self.randint(2, 4),
                                 str(self.randint(0, 4))])
        if not any(nm == "n" for (nm, _, _) in sc.all("idx")):
            depth_arg = str(self.randint(0, 4))
        self.features.add("recursion")
        return E("%s(%s, %s, %s)" % (name, a.code, arr.name, depth_arg), bound,
                 False)

    def int_expr(self, sc, modulus):
        """A non-negative int expression below modulus."""
        idx = [x for x in sc.all("idx") if x[1] >= 0]
        if idx and self.chance(0.8):
            name, lo, hi = self.choice(idx)
            if hi <= modulus and self.chance(0.5):
                return name
            return "(%s + %d) %% %d" % (name, self.randint(0, 3), modulus)
        return str(self.randint(0, modulus - 1))

    def cond(self, sc, depth):
        """A branch condition: on ints (never flips) or on floating-point
        values (traced)."""
        idx = sc.all("idx")
        if idx and self.chance(0.35):
            name, lo, hi = self.choice(idx)
            k = self.randint(0, 2)
            if k == 0:
                return "(%s %% 2 == 0)" % name
            if k == 1:
                return "(%s > %d)" % (name, self.randint(lo, max(lo, hi - 1)))
            return "(%s < %d)" % (name, self.randint(lo, max(lo, hi - 1)))
        a = self.squash(self.expr(sc, depth), SQUASH_AT)
        thr = self.uniform(-0.6, 0.6)
        op = self.choice([">", "<", ">=", "<="])
        self.features.add("branch")
        return "adfz_br(%s %s %s)" % (a.code, op, lit(thr))

    # -- statements --------------------------------------------------------
    def emit(self, lines, ind, text):
        lines.append("  " * ind + text)

    def assign_scalar(self, sc, lines, ind, ctx):
        scal = [v for v in sc.all("scalars") if v[2]]
        if not scal:
            return False
        name, cap, _ = self.choice(scal)
        e = self.expr(sc, self.randint(1, 3))
        k = self.randint(0, 4)
        if k == 0:
            self.emit(lines, ind, "%s = %s;" % (name, self.squash(e, cap).code))
        elif k == 1:
            t = self.squash(E("(%s + %s)" % (name, e.code), cap + e.bound,
                              e.simple), cap)
            self.emit(lines, ind, "%s = %s;" % (name, t.code))
        elif k == 2:
            self.emit(lines, ind, "%s *= %s;" % (name, self.squash(e, 1.0).code))
        elif k == 3:
            c = self.uniform(0.1, 0.9)
            e = self.squash(e, cap)
            self.emit(lines, ind, "%s = %s * %s + %s * %s;" % (
                name, lit(c), name, lit(1 - c), e.code))
        else:
            t = self.squash(E("(%s * %s)" % (name, e.code), cap * e.bound,
                              e.simple), cap)
            self.emit(lines, ind, "%s = %s;" % (name, t.code))
        return True

    def assign_array(self, sc, lines, ind, ctx):
        arrs = [a for a in sc.all("arrays") if a.writable]
        if not arrs:
            return False
        a = self.choice(arrs)
        i = self.index(sc, a, allow_prev=False)
        el = "%s[%s]" % (a.name, i)
        e = self.expr(sc, self.randint(1, 3))
        k = self.randint(0, 4)
        self.features.add("inplace")
        if k == 0:
            self.emit(lines, ind, "%s = %s;" % (el, self.squash(e, a.cap).code))
        elif k == 1:
            self.emit(lines, ind, "%s *= %s;" % (el, self.squash(e, 1.0).code))
        elif k == 2:
            c = self.uniform(0.1, 0.9)
            self.emit(lines, ind, "%s = %s * %s + %s * %s;" % (
                el, lit(c), el, lit(1 - c), self.squash(e, a.cap).code))
        elif k == 3:
            # a recurrence with the previous element
            j = self.prev_index(sc, a)
            t = E("(%s * %s[%s] + %s)" % (el, a.name, j, e.code),
                  a.cap * a.cap + e.bound, e.simple)
            self.emit(lines, ind, "%s = %s;" % (el, self.squash(t, a.cap).code))
        else:
            t = self.squash(E("(%s + %s)" % (el, e.code), a.cap + e.bound,
                              e.simple), a.cap)
            self.emit(lines, ind, "%s = %s;" % (el, t.code))
        return True

    def prev_index(self, sc, a):
        for (name, lo, hi) in sc.all("idx"):
            if lo >= 1 and hi <= a.length and self.chance(0.7):
                return "%s - 1" % name
        return str(self.randint(0, a.length - 1))

    def decl_scalar(self, sc, lines, ind, ctx):
        name = self.fresh("v")
        cap = self.choice([1.0, 2.0, 5.0, 20.0])
        e = self.squash(self.expr(sc, self.randint(1, 4)), cap)
        self.emit(lines, ind, "double %s = %s;" % (name, e.code))
        sc.scalars.append((name, cap, True))
        return True

    def for_loop(self, sc, lines, ind, ctx, budget):
        i = self.fresh("i")
        body = Scope(sc)
        k = self.randint(0, 3)
        counts = [v for v in sc.all("idx") if v[1] >= 0]
        if k == 3 and counts:
            # trip count from an int: the argument n, or an int computed
            # from a comparison of floating-point values
            cn, clo, chi = self.choice(counts)
            self.emit(lines, ind, "for (int %s = 0; %s < %s; %s++) {"
                      % (i, i, cn, i))
            body.idx.append((i, 0, max(1, chi - 1)))
            self.features.add("loop-n" if cn == "n" else "loop-cmp")
        elif k == 2:
            # pointer walk over an array
            arrs = [a for a in sc.all("arrays") if a.writable]
            if arrs:
                a = self.choice(arrs)
                p = self.fresh("p")
                self.emit(lines, ind, "for (double *%s = %s; %s < %s + %d; ++%s) {"
                          % (p, a.name, p, a.name, a.length, p))
                e = self.expr(sc, 2)
                t = E("(*%s * %s)" % (p, e.code), a.cap * e.bound, e.simple)
                if self.chance(0.5):
                    t = E("(*%s + %s)" % (p, e.code), a.cap + e.bound, e.simple)
                self.emit(lines, ind + 1, "*%s = %s;" % (p, self.squash(t, a.cap).code))
                self.emit(lines, ind, "}")
                self.features.add("pointer")
                return True
            lo, hi = 0, self.randint(2, 6)
            self.emit(lines, ind, "for (int %s = %d; %s < %d; %s++) {"
                      % (i, lo, i, hi, i))
            body.idx.append((i, lo, hi))
        else:
            lo = self.randint(0, 1)
            hi = self.randint(lo + 1, 7)
            self.emit(lines, ind, "for (int %s = %d; %s < %d; %s++) {"
                      % (i, lo, i, hi, i))
            body.idx.append((i, lo, hi))
            self.features.add("loop-const")
        inner = Ctx(ctx.depth + 1, True, ctx.loops + 1)
        self.block(body, lines, ind + 1, inner, budget)
        if self.chance(0.25):
            self.emit(lines, ind + 1, "if (%s) break;" % self.cond(body, 1))
            self.features.add("break")
        self.emit(lines, ind, "}")
        return True

    def while_loop(self, sc, lines, ind, ctx, budget):
        """A loop whose trip count depends on a floating-point value."""
        scal = [v for v in sc.all("scalars") if v[2]]
        if not scal:
            return False
        name, cap, _ = self.choice(scal)
        k = self.fresh("k")
        m = self.randint(2, 8)
        thr = self.uniform(-0.5, 0.9) * cap
        step = self.uniform(0.15, 0.5) * cap
        self.emit(lines, ind, "int %s = 0;" % k)
        self.emit(lines, ind, "while (adfz_br(%s < %s) && %s < %d) {"
                  % (name, lit(thr), k, m))
        body = Scope(sc)
        body.idx.append((k, 0, m))
        inner = Ctx(ctx.depth + 1, False, ctx.loops + 1)
        self.block(body, lines, ind + 1, inner, max(1, budget // 2))
        # the variable moves up by at least step / 2 (until the cap stops it)
        e = self.squash(self.expr(body, 2), 1.0)
        t = self.squash(E("(%s + %s + %s * %s)" % (name, lit(step), lit(step / 2), e.code),
                          cap + 1.5 * step, e.simple), cap)
        self.emit(lines, ind + 1, "%s = %s;" % (name, t.code))
        self.emit(lines, ind + 1, "%s++;" % k)
        self.emit(lines, ind, "}")
        self.features.add("loop-data")
        return True

    def if_stmt(self, sc, lines, ind, ctx, budget):
        self.emit(lines, ind, "if (%s) {" % self.cond(sc, 2))
        self.block(Scope(sc), lines, ind + 1, Ctx(ctx.depth + 1, ctx.in_loop,
                                                   ctx.loops), budget)
        if self.chance(0.6):
            self.emit(lines, ind, "} else {")
            self.block(Scope(sc), lines, ind + 1,
                       Ctx(ctx.depth + 1, ctx.in_loop, ctx.loops), budget)
        self.emit(lines, ind, "}")
        return True

    def int_from_cmp(self, sc, lines, ind, ctx):
        """An int derived from a floating-point comparison, used as a trip
        count below."""
        c = self.fresh("c")
        self.emit(lines, ind, "int %s = %s + %s;" % (c, self.cond(sc, 1),
                                                    self.cond(sc, 1)))
        sc.idx.append((c, 0, 3))
        return True

    def local_array(self, sc, lines, ind, ctx, heap):
        name = self.fresh("h" if heap else "a")
        length = self.randint(2, 7)
        cap = self.choice([2.0, 5.0, 20.0])
        if heap:
            fn = self.choice(["malloc", "calloc"])
            if fn == "malloc":
                self.emit(lines, ind, "double *%s = (double *)malloc(%d * sizeof(double));"
                          % (name, length))
            else:
                self.emit(lines, ind, "double *%s = (double *)calloc(%d, sizeof(double));"
                          % (name, length))
            self.features.add("heap")
        else:
            self.emit(lines, ind, "double %s[%d];" % (name, length))
            self.features.add("array")
        j = self.fresh("j")
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)" % (j, j, length, j))
        body = Scope(sc)
        body.idx.append((j, 0, length))
        e = self.expr(body, 2)
        if self.nx and self.chance(0.6):
            # the array starts from the inputs (otherwise it may hold only
            # inactive values until written)
            c = self.uniform(-1.5, 1.5)
            e = E("%s * x[%s] + %s" % (lit(c), "%s %% %d" % (j, self.nx)
                                       if length > self.nx else j, e.code),
                  abs(c) * self.xcap + e.bound, e.simple)
        e = self.squash(e, cap)
        self.emit(lines, ind + 1, "%s[%s] = %s;" % (name, j, e.code))
        arr = Arr(name, length, cap, True)
        sc.arrays.append(arr)
        if heap:
            self.heap_live.append(name)
        if length >= 3 and self.chance(0.5):
            off = self.randint(1, length - 2)
            p = self.fresh("q")
            self.emit(lines, ind, "double *%s = %s + %d;" % (p, name, off))
            sc.arrays.append(Arr(p, length - off, cap, True, arr))
            self.features.add("pointer")
        return True

    def struct_copy(self, sc, lines, ind, ctx):
        """An array of structs mixing doubles and an int, filled, copied
        whole (memcpy of a length the compiler may not see, element by
        element, or memcpy then an overlapping memmove either way), and read
        back into a double array."""
        length = self.randint(2, 6)
        src, dst, out = self.fresh("s"), self.fresh("t"), self.fresh("a")
        j = self.fresh("j")
        self.emit(lines, ind, "struct adfz_pt %s[%d], %s[%d];"
                  % (src, length, dst, length))
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++) {"
                  % (j, j, length, j))
        body = Scope(sc)
        body.idx.append((j, 0, length))
        ev = self.expr(body, 2)
        if self.nx:
            ev = E("%s * x[%s %% %d] + %s" % (lit(self.uniform(-1.5, 1.5)), j,
                                              self.nx, ev.code),
                   1.5 * self.xcap + ev.bound, ev.simple)
        ev = self.squash(ev, 5.0)
        ew = self.squash(self.expr(body, 2), 5.0)
        self.emit(lines, ind + 1, "%s[%s].v = %s;" % (src, j, ev.code))
        self.emit(lines, ind + 1, "%s[%s].k = %s + 1;" % (src, j, j))
        self.emit(lines, ind + 1, "%s[%s].w = %s;" % (src, j, ew.code))
        self.emit(lines, ind, "}")
        how = self.choice(["memcpy", "assign", "memmove-up", "memmove-down"])
        if how == "assign":
            self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                      % (j, j, length, j))
            self.emit(lines, ind + 1, "%s[%s] = %s[%s];" % (dst, j, src, j))
        else:
            self.emit(lines, ind,
                      "memcpy(%s, %s, (size_t)(n > -1000 ? %d : 1) * "
                      "sizeof %s[0]);" % (dst, src, length, src))
        if how == "memmove-up":
            self.emit(lines, ind, "memmove(%s + 1, %s, %d * sizeof %s[0]);"
                      % (dst, dst, length - 1, dst))
        elif how == "memmove-down":
            self.emit(lines, ind, "memmove(%s, %s + 1, %d * sizeof %s[0]);"
                      % (dst, dst, length - 1, dst))
        self.emit(lines, ind, "double %s[%d];" % (out, length))
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                  % (j, j, length, j))
        self.emit(lines, ind + 1, "%s[%s] = %s[%s].v + %s[%s].w / %s[%s].k;"
                  % (out, j, dst, j, dst, j, dst, j))
        sc.arrays.append(Arr(out, length, 10.0, True))
        self.features.add("struct-copy")
        return True

    def call_array_helper(self, sc, lines, ind, ctx):
        if not self.array_helpers:
            return False
        arrs = [a for a in sc.all("arrays") if a.writable and a.cap >= 2.0]
        if not arrs:
            return False
        a = self.choice(arrs)
        name = self.choice(self.array_helpers)
        self.used.add(name)
        e = self.squash(self.expr(sc, 2), HELPER_ARG)
        self.emit(lines, ind, "%s(%s, %d, %s);" % (name, a.name,
                                                 self.randint(1, a.length), e.code))
        self.features.add("call")
        return True

    def block(self, sc, lines, ind, ctx, budget):
        n = self.randint(1, max(1, budget))
        for _ in range(n):
            self.stmt(sc, lines, ind, ctx, budget)

    def stmt(self, sc, lines, ind, ctx, budget):
        nested_ok = ctx.depth < 3 and budget > 1
        for _ in range(10):
            if self.version >= 24 and self.v24_in_f and self.chance(0.15) \
                    and self.v24_stmt(sc, lines, ind, ctx):
                return
            if self.version >= 29 and self.v29_in_f and self.chance(0.2) \
                    and self.v29_stmt(sc, lines, ind, ctx):
                return
            if self.version >= 5 and self.chance(0.12) and \
                    self.v5_stmt(sc, lines, ind, ctx):
                return
            k = self.rand()
            if k < 0.2:
                ok = self.decl_scalar(sc, lines, ind, ctx)
            elif k < 0.38:
                ok = self.assign_scalar(sc, lines, ind, ctx)
            elif k < 0.55:
                ok = self.assign_array(sc, lines, ind, ctx)
            elif k < 0.66:
                ok = nested_ok and ctx.loops < 2 and \
                    self.for_loop(sc, lines, ind, ctx, budget // 2)
            elif k < 0.72:
                ok = nested_ok and ctx.loops < 2 and \
                    self.while_loop(sc, lines, ind, ctx, budget // 2)
            elif k < 0.82:
                ok = nested_ok and self.if_stmt(sc, lines, ind, ctx, budget // 2)
            elif k < 0.86:
                ok = self.int_from_cmp(sc, lines, ind, ctx)
            elif k < 0.9:
                ok = ctx.loops == 0 and ctx.depth == 0 and \
                    self.local_array(sc, lines, ind, ctx, self.chance(0.5))
            elif k < 0.93:
                ok = ctx.loops == 0 and ctx.depth == 0 and \
                    self.struct_copy(sc, lines, ind, ctx)
            else:
                ok = self.call_array_helper(sc, lines, ind, ctx)
            if ok:
                return

    # -- version 5: constructs of code that nobody on the team wrote -------
    def v5_stmt(self, sc, lines, ind, ctx):
        # (versions 7 and 8 add a case each; the earlier versions draw as
        # they did)
        k = self.randint(0, 10 if self.version >= 28 else
                         9 if self.version >= 27 else
                         8 if self.version >= 13 else
                         7 if self.version >= 9 else
                         6 if self.version >= 8 else
                         5 if self.version >= 7 else 4)
        if k == 10:
            return self.int_pointer(sc, lines, ind)
        if k == 9:
            return ctx.loops == 0 and ctx.depth == 0 and \
                self.workspace_block(sc, lines, ind)
        if k == 8:
            return ctx.loops < 2 and self.do_while_call(sc, lines, ind, ctx)
        if k == 7:
            return ctx.loops == 0 and ctx.depth == 0 and \
                self.runtime_struct_array(sc, lines, ind, ctx)
        if k == 6:
            return ctx.loops == 0 and ctx.depth == 0 and \
                self.pointer_struct_copy(sc, lines, ind, ctx)
        if k == 5:
            return self.aligned_peel(sc, lines, ind, ctx)
        if k == 0:
            return self.float_bits(sc, lines, ind, ctx)
        if k == 1:
            return ctx.loops < 2 and self.max_scan(sc, lines, ind, ctx)
        if k == 2:
            return ctx.loops == 0 and ctx.depth == 0 and \
                self.pointer_table(sc, lines, ind, ctx)
        if k == 3:
            return self.call_restrict_helper(sc, lines, ind, ctx)
        return self.const_table_read(sc, lines, ind, ctx)

    def workspace_block(self, sc, lines, ind):
        """(version 27) A solver's workspace: one malloc'd block of a
        run-time size carved by a char pointer into two arrays of doubles
        and an array of int pivots after them, the pivots used as indices,
        and part of it copied out with memcpy (lmfit's lmmin2). Until
        2026-12-06 forward mode refused the pivots at -O0 and reverse mode
        dropped the copy's adjoints from -O1 (issue 33)."""
        if not any(nm == "n" for (nm, _, _) in sc.all("idx")):
            return False
        self.features.add("workspace-block")
        src = self.squash(self.expr(sc, 2), 5.0)
        name = self.fresh("v")
        m, ws = self.fresh("wm"), self.fresh("ws")
        wa, wb, wp = self.fresh("wa"), self.fresh("wb"), self.fresh("wp")
        wc = self.fresh("wc")
        c = self.uniform(-0.5, 0.5)
        e = self.emit
        e(lines, ind, "double %s;" % name)
        e(lines, ind, "{")
        i1 = ind + 1
        e(lines, i1, "int %s = n + 1;" % m)
        e(lines, i1, "char *%s = (char *)malloc(2 * %s * sizeof(double) + "
          "%s * sizeof(int));" % (ws, m, m))
        e(lines, i1, "double *%s = (double *)%s;" % (wa, ws))
        e(lines, i1, "double *%s = (double *)(%s + %s * sizeof(double));"
          % (wb, ws, m))
        e(lines, i1, "int *%s = (int *)(%s + 2 * %s * sizeof(double));"
          % (wp, ws, m))
        e(lines, i1, "double %s[%d];" % (wc, NMAX + 1))
        e(lines, i1, "for (int i = 0; i < %s; i++) {" % m)
        e(lines, i1 + 1, "%s[i] = %s - 1 - i;" % (wp, m))
        e(lines, i1 + 1, "%s[i] = (%s) * (0.5 + 0.25 * i);" % (wa, src.code))
        e(lines, i1, "}")
        e(lines, i1, "for (int i = 0; i < %s; i++)" % m)
        e(lines, i1 + 1, "%s[i] = %s[%s[i]] * %s + %s[i];"
          % (wb, wa, wp, lit(c), wa))
        e(lines, i1, "memcpy(%s, %s, %s * sizeof(double));" % (wc, wb, m))
        e(lines, i1, "%s = %s[0] + 0.5 * %s[%s - 1];" % (name, wc, wc, m))
        e(lines, i1, "free(%s);" % ws)
        e(lines, ind, "}")
        sc.scalars.append((name, 20.0, True))
        return True

    def int_pointer(self, sc, lines, ind):
        """(version 28) An array in scope read through a pointer made from
        an integer (issue 33): its address tagged in the low bit and the
        tag masked off, an element's address computed as an integer
        (`u + i * sizeof(double)`), or the address passed as an unsigned
        long to a function that is not inlined. Until 2026-12-07 the
        values read through the integer parameter got no derivative,
        without an error."""
        arrs = [a for a in sc.all("arrays") if a.length >= 2]
        if not arrs:
            return False
        a = self.choice(arrs)
        form = self.randint(0, 2)
        name, u, i = self.fresh("ip"), self.fresh("iu"), self.fresh("ii")
        c = self.uniform(0.3, 1.2)
        e = self.emit
        if form == 0:
            p = self.fresh("iq")
            e(lines, ind, "unsigned long %s = (unsigned long)(%s) | 1UL;"
              % (u, a.name))
            e(lines, ind, "const double *%s = (const double *)(%s & ~1UL);"
              % (p, u))
            e(lines, ind, "double %s = %s * %s[0] * %s[1];"
              % (name, lit(c), p, p))
            bound = c * a.cap * a.cap
            self.features.add("int-pointer-tag")
        elif form == 1:
            e(lines, ind, "unsigned long %s = (unsigned long)(%s);"
              % (u, a.name))
            e(lines, ind, "double %s = 0;" % name)
            e(lines, ind, "for (int %s = 0; %s < %d; %s++)"
              % (i, i, a.length, i))
            e(lines, ind + 1, "%s += %s * (%s + 1) * *(const double *)(%s + "
              "%s * sizeof(double));" % (name, lit(c), i, u, i))
            bound = c * a.length * (a.length + 1) / 2 * a.cap
            self.features.add("int-pointer-offset")
        else:
            if self.int_pointer_helper is None:
                self.int_pointer_helper = self.fresh("ih")
                self.out.extend([
                    "__attribute__((noinline)) static double %s("
                    "unsigned long u, int m, double c) {"
                    % self.int_pointer_helper,
                    "  const double *p = (const double *)u;",
                    "  double s = 0;",
                    "  for (int i = 0; i < m; i++)",
                    "    s += c * p[i] * sin(p[i]);",
                    "  return s;",
                    "}",
                    ""])
            e(lines, ind, "double %s = %s((unsigned long)(%s), %d, %s);"
              % (name, self.int_pointer_helper, a.name, a.length, lit(c)))
            self.used.add(self.int_pointer_helper)
            bound = c * a.length * a.cap
            self.features.add("int-pointer-parameter")
        sq = self.squash(E(name, bound), 5.0)
        if sq.code != name:
            e(lines, ind, "%s = %s;" % (name, sq.code))
        sc.scalars.append((name, min(bound, 5.0), True))
        return True

    def do_while_call(self, sc, lines, ind, ctx):
        """(version 13) A do-while loop (its body runs at least once) that
        calls a function that is not inlined, updating one element of an
        array from its old value, its neighbour and a parameter that
        changes with the iteration: what the callee's sweeps record once
        per call. Inlined into the combined gradient, those records were
        kept in one frame slot for every iteration until 2026-12-06 (a
        wrong gradient from -O1 on: e2e rev_callee_loop_records.c)."""
        arrs = [a for a in sc.all("arrays")
                if a.writable and a.cap >= 2.0 and a.length >= 2]
        if not arrs:
            return False
        a = self.choice(arrs)
        if self.loop_helper is None:
            self.loop_helper = self.fresh("lp")
            self.out.extend([
                "__attribute__((noinline)) static void %s(double *v, int m, "
                "int k, double c) {" % self.loop_helper,
                "  double old = v[k % m];",
                "  v[k % m] = 2.0 * tanh(sin(c * old) + 0.5 * c * "
                "v[(k + 1) % m]);",
                "}",
                ""])
        k = self.fresh("k")
        trip = self.choice(["n % 3 + 1", "3", "n"])
        body = Scope(sc)
        body.idx.append((k, 0, NMAX))
        e = self.squash(self.expr(body, 2), HELPER_ARG)
        self.emit(lines, ind, "int %s = 0;" % k)
        self.emit(lines, ind, "do {")
        self.emit(lines, ind + 1, "%s(%s, %d, %s, %s);"
                  % (self.loop_helper, a.name, a.length, k, e.code))
        self.emit(lines, ind, "} while (++%s < %s);" % (k, trip))
        self.used.add(self.loop_helper)
        self.features.add("do-while-call")
        return True

    def runtime_struct_array(self, sc, lines, ind, ctx):
        """(version 9) A heap array of structs that mix doubles and an int,
        of a count known at run time only (from n), filled, copied whole
        (one memcpy or memmove of count * sizeof, or element by element)
        and read back: the copy's layout repeats an element the analysis
        knows from the struct, over a length it does not."""
        m, q, r = self.fresh("m"), self.fresh("q"), self.fresh("r")
        out, j = self.fresh("a"), self.fresh("j")
        self.emit(lines, ind, "int %s = n %% 3 + 2;" % m)
        self.emit(lines, ind,
                  "struct adfz_pt *%s = malloc(%s * sizeof *%s), "
                  "*%s = malloc(%s * sizeof *%s);" % (q, m, q, r, m, r))
        self.emit(lines, ind, "for (int %s = 0; %s < %s; %s++) {"
                  % (j, j, m, j))
        body = Scope(sc)
        body.idx.append((j, 0, 4))
        ev = self.squash(self.expr(body, 2), 5.0)
        ew = self.squash(self.expr(body, 2), 5.0)
        self.emit(lines, ind + 1, "%s[%s].v = %s;" % (q, j, ev.code))
        self.emit(lines, ind + 1, "%s[%s].k = %s + 1;" % (q, j, j))
        self.emit(lines, ind + 1, "%s[%s].w = %s;" % (q, j, ew.code))
        self.emit(lines, ind, "}")
        how = self.choice(["memcpy", "memmove", "assign"])
        if how == "assign":
            self.emit(lines, ind, "for (int %s = 0; %s < %s; %s++)"
                      % (j, j, m, j))
            self.emit(lines, ind + 1, "%s[%s] = %s[%s];" % (r, j, q, j))
        else:
            self.emit(lines, ind, "%s(%s, %s, %s * sizeof *%s);"
                      % (how, r, q, m, q))
        length = self.randint(2, 5)
        self.emit(lines, ind, "double %s[%d];" % (out, length))
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                  % (j, j, length, j))
        el = "%s[%s %% %s]" % (r, j, m)
        e = self.squash(E("%s.v * %s.w / %s.k" % (el, el, el), 25.0, False),
                        10.0)
        self.emit(lines, ind + 1, "%s[%s] = %s;" % (out, j, e.code))
        self.emit(lines, ind, "free(%s);" % q)
        self.emit(lines, ind, "free(%s);" % r)
        sc.arrays.append(Arr(out, length, 10.0, True))
        self.features.add("runtime-struct-array")
        return True

    def pointer_struct_copy(self, sc, lines, ind, ctx):
        """(version 8) An array of structs that mix a double, an int and a
        pointer into an array in scope (the pointer first or last), filled,
        copied whole (memcpy, assignment, or memcpy then an overlapping
        memmove), then read through the copied pointers: the pointers'
        shadows must move with them, the doubles' adjoints back."""
        arrs = sc.all("arrays")
        if not arrs:
            return False
        a = self.choice(arrs)
        st = self.choice(["adfz_pr", "adfz_rp"])
        length = self.randint(2, 6)
        src, dst, out = self.fresh("s"), self.fresh("t"), self.fresh("a")
        j = self.fresh("j")
        self.emit(lines, ind, "struct %s %s[%d], %s[%d];"
                  % (st, src, length, dst, length))
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++) {"
                  % (j, j, length, j))
        body = Scope(sc)
        body.idx.append((j, 0, length))
        ev = self.squash(self.expr(body, 2), 5.0)
        self.emit(lines, ind + 1, "%s[%s].v = %s;" % (src, j, ev.code))
        if st == "adfz_pr":
            self.emit(lines, ind + 1, "%s[%s].k = %s + 1;" % (src, j, j))
        mul, off = self.randint(1, 3), self.randint(0, a.length - 1)
        if self.version >= 10:
            mul = 1  # (version 10) neighbours point at different elements
        self.emit(lines, ind + 1, "%s[%s].p = &%s[(%s * %d + %d) %% %d];"
                  % (src, j, a.name, j, mul, off, a.length))
        self.emit(lines, ind, "}")
        how = self.choice(["memcpy", "assign", "memmove-up"])
        if how == "assign":
            self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                      % (j, j, length, j))
            self.emit(lines, ind + 1, "%s[%s] = %s[%s];" % (dst, j, src, j))
        else:
            self.emit(lines, ind, "memcpy(%s, %s, sizeof %s);"
                      % (dst, src, src))
        if how == "memmove-up":
            self.emit(lines, ind, "memmove(%s + 1, %s, %d * sizeof %s[0]);"
                      % (dst, dst, length - 1, dst))
            if self.version >= 10 and length > 2:
                # (version 10) and back down by one, so that both
                # directions of an overlapping copy are taken
                self.emit(lines, ind, "memmove(%s, %s + 1, %d * sizeof %s[0]);"
                          % (dst, dst, length - 2, dst))
        self.emit(lines, ind, "double %s[%d];" % (out, length))
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                  % (j, j, length, j))
        k = " / %s[%s].k" % (dst, j) if st == "adfz_pr" else ""
        e = self.squash(E("%s[%s].v * *%s[%s].p%s" % (dst, j, dst, j, k),
                          5.0 * a.cap, False), 10.0)
        self.emit(lines, ind + 1, "%s[%s] = %s;" % (out, j, e.code))
        if self.version >= 10:
            # (version 10) every element reaches every other (half itself,
            # half the mean), whichever of them the program reads later: a
            # pointer shadow copied to the wrong element shows
            m = self.fresh("m")
            self.emit(lines, ind, "double %s = 0;" % m)
            self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                      % (j, j, length, j))
            self.emit(lines, ind + 1, "%s += %s[%s];" % (m, out, j))
            self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                      % (j, j, length, j))
            self.emit(lines, ind + 1, "%s[%s] = 0.5 * %s[%s] + %s * %s;"
                      % (out, j, out, j, lit(0.5 / length), m))
        sc.arrays.append(Arr(out, length, 10.0, True))
        self.features.add("pointer-struct-copy")
        return True

    def aligned_peel(self, sc, lines, ind, ctx):
        """(version 7) A sum over an array read as SIMD code that aligns its
        own addresses reads it: scalar steps until the address is a
        multiple of 16, then aligned two-double vector loads, then the
        rest (how Eigen's packet loops read; the shadow of the array need
        not be aligned as the array is)."""
        arrs = sc.all("arrays")
        if not arrs:
            return False
        a = self.choice(arrs)
        c1 = self.uniform(-1.5, 1.5)
        name, i, v = self.fresh("pk"), self.fresh("pi"), self.fresh("pv")
        self.emit(lines, ind, "double %s = 0;" % name)
        self.emit(lines, ind, "{")
        self.emit(lines, ind + 1, "int %s = 0;" % i)
        self.emit(lines, ind + 1,
                  "for (; %s < %d && ((unsigned long)(%s + %s) & 15) != 0; %s++)"
                  % (i, a.length, a.name, i, i))
        self.emit(lines, ind + 2, "%s += %s * %s[%s] * %s[%s];"
                  % (name, lit(c1), a.name, i, a.name, i))
        self.emit(lines, ind + 1, "for (; %s + 2 <= %d; %s += 2) {"
                  % (i, a.length, i))
        self.emit(lines, ind + 2, "adfz_v2 %s = *(const adfz_v2 *)(%s + %s);"
                  % (v, a.name, i))
        # (each element contributes the same term on every path: the sum
        # does not depend on where the array lies)
        self.emit(lines, ind + 2, "%s += %s * (%s[0] * %s[0] + %s[1] * %s[1]);"
                  % (name, lit(c1), v, v, v, v))
        self.emit(lines, ind + 1, "}")
        self.emit(lines, ind + 1, "for (; %s < %d; %s++)" % (i, a.length, i))
        self.emit(lines, ind + 2, "%s += %s * %s[%s] * %s[%s];"
                  % (name, lit(c1), a.name, i, a.name, i))
        self.emit(lines, ind, "}")
        bound = a.length * abs(c1) * a.cap * a.cap
        sc.scalars.append((name, bound, True))
        self.features.add("aligned-peel")
        return True

    def float_bits(self, sc, lines, ind, ctx):
        """A double's bits through integers: memcpy into an unsigned long
        long and back, a union, or a whole array copied through an integer
        array (element by element or at once); from version 11 also passed
        to and returned from functions that are not inlined as integers."""
        k = self.randint(0, 5 if self.version >= 25 else
                         4 if self.version >= 22 else
                         3 if self.version >= 11 else 2)
        if k == 5:
            return self.byte_reuse(sc, lines, ind)
        self.features.add("float-bits")
        if k == 4:
            # (Version 22: a new exponent added to the bits, as fdlibm's
            # scalbn and pow write `hx + (n << 20)`: the value scaled by
            # 2^K. Of a value kept normal and positive.)
            self.features.add("float-bits-exponent")
            src = self.squash(self.expr(sc, 2), 5.0)
            K = self.choice([-2, -1, 1, 2])
            name, b = self.fresh("v"), self.fresh("b")
            self.emit(lines, ind, "double %s;" % name)
            self.emit(lines, ind, "{")
            self.emit(lines, ind + 1, "double %s_d = 1.5 + (%s) * (%s);"
                      % (b, src.code, src.code))
            self.emit(lines, ind + 1, "unsigned long long %s;" % b)
            self.emit(lines, ind + 1, "memcpy(&%s, &%s_d, sizeof %s);"
                      % (b, b, b))
            self.emit(lines, ind + 1, "%s %s= (unsigned long long)%d << 52;"
                      % (b, "+" if K > 0 else "-", abs(K)))
            self.emit(lines, ind + 1, "memcpy(&%s, &%s, sizeof %s);"
                      % (name, b, name))
            self.emit(lines, ind, "}")
            sc.scalars.append((name, 26.5 * 2 ** K, True))
            return True
        if k == 3:
            self.features.add("float-bits-calls")
            src = self.squash(self.expr(sc, 2), 5.0)
            c = self.squash(self.expr(sc, 1), 2.0)
            name, b = self.fresh("v"), self.fresh("b")
            self.emit(lines, ind, "double %s;" % name)
            if self.chance(0.5):
                self.emit(lines, ind, "%s = adfz_from_bits(adfz_to_bits(%s));"
                          % (name, src.code))
                sc.scalars.append((name, 5.0, True))
            else:
                self.emit(lines, ind, "{")
                self.emit(lines, ind + 1, "double %s_d = %s;" % (b, src.code))
                self.emit(lines, ind + 1, "unsigned long long %s;" % b)
                self.emit(lines, ind + 1, "memcpy(&%s, &%s_d, sizeof %s);"
                          % (b, b, b))
                self.emit(lines, ind + 1, "%s = adfz_scale_bits(%s, %s);"
                          % (name, b, c.code))
                self.emit(lines, ind, "}")
                sc.scalars.append((name, 10.0, True))
            return True
        arrs = sc.all("arrays")
        if k < 2 or not arrs or ctx.loops > 0:
            src = self.squash(self.expr(sc, 2), 5.0)
            name, b = self.fresh("v"), self.fresh("b")
            self.emit(lines, ind, "double %s;" % name)
            if k == 0 or not arrs:
                self.emit(lines, ind, "{")
                self.emit(lines, ind + 1, "double %s_d = %s;" % (b, src.code))
                self.emit(lines, ind + 1, "unsigned long long %s;" % b)
                self.emit(lines, ind + 1, "memcpy(&%s, &%s_d, sizeof %s);"
                          % (b, b, b))
                self.emit(lines, ind + 1, "memcpy(&%s, &%s, sizeof %s);"
                          % (name, b, name))
                self.emit(lines, ind, "}")
            else:
                self.emit(lines, ind, "{")
                self.emit(lines, ind + 1,
                          "union { double d; unsigned long long u; } %s;" % b)
                self.emit(lines, ind + 1, "%s.d = %s;" % (b, src.code))
                self.emit(lines, ind + 1, "unsigned long long %s_u = %s.u;"
                          % (b, b))
                self.emit(lines, ind + 1, "%s.u = %s_u;" % (b, b))
                self.emit(lines, ind + 1, "%s = %s.d;" % (name, b))
                self.emit(lines, ind, "}")
            sc.scalars.append((name, 5.0, True))
            return True
        a = self.choice(arrs)
        ib, dst, j = self.fresh("ib"), self.fresh("a"), self.fresh("j")
        self.emit(lines, ind, "unsigned long long %s[%d];" % (ib, a.length))
        self.emit(lines, ind, "double %s[%d];" % (dst, a.length))
        if self.chance(0.5):
            self.emit(lines, ind, "memcpy(%s, %s, sizeof %s);" % (ib, a.name, ib))
            self.emit(lines, ind, "memcpy(%s, %s, sizeof %s);" % (dst, ib, dst))
        else:
            self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                      % (j, j, a.length, j))
            self.emit(lines, ind + 1, "memcpy(&%s[%s], &%s[%s], sizeof(double));"
                      % (ib, j, a.name, j))
            self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)"
                      % (j, j, a.length, j))
            self.emit(lines, ind + 1, "memcpy(&%s[%s], &%s[%s], sizeof(double));"
                      % (dst, j, ib, j))
        sc.arrays.append(Arr(dst, a.length, a.cap, True))
        return True

    def byte_reuse(self, sc, lines, ind):
        """(version 25) Bytes that hold a pointer to an array, then a double
        (a pool's free list, a buffer reused): a local buffer written and
        read by functions that are not inlined. The
        pointer's shadow was read as the double's adjoint until 2026-12-06
        (issue 33). From version 26 also the other order, the double and
        then the pointer, which the reverse sweep got wrong until
        2026-12-06 as well."""
        arrs = sc.all("arrays")
        if not arrs:
            return False
        self.features.add("byte-reuse")
        src = self.squash(self.expr(sc, 2), 5.0)
        name, b = self.fresh("v"), self.fresh("rb")
        arr = self.choice(arrs).name
        ptr = "adfz_put_ptr(%s, %s);" % (b, arr)
        # (Version 26: the double first, then a pointer over its high
        # half, whose shadow's low bits make the adjoint's exponent.)
        double_first = self.version >= 26 and self.chance(0.5)
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        self.emit(lines, ind + 1, "_Alignas(16) unsigned char %s[16];" % b)
        if not double_first:
            self.emit(lines, ind + 1, ptr)
        self.emit(lines, ind + 1, "adfz_put_dbl(%s, %s);" % (b, src.code))
        self.emit(lines, ind + 1, "%s = adfz_get_dbl(%s);" % (name, b))
        if double_first:
            self.features.add("byte-reuse-double-first")
            self.emit(lines, ind + 1, "adfz_put_ptr4(%s, %s);" % (b, arr))
        self.emit(lines, ind, "}")
        sc.scalars.append((name, 5.0, True))
        return True

    def max_scan(self, sc, lines, ind, ctx):
        """The maximum or minimum of an array (x when in scope, whose test
        point may hold equal values: ties), written as a select, fmax/fmin
        or an if, of the same function of every element."""
        arrs = sc.all("arrays")
        xs = [a for a in arrs if a.name == "x"]
        if not arrs:
            return False
        a = xs[0] if xs and self.chance(0.7) else self.choice(arrs)
        m, k = self.fresh("m"), self.fresh("k")
        el = E("%s[%s]" % (a.name, k), a.cap)
        if self.chance(0.4):
            el = self.squash(self.unary_of(el), SQUASH_AT)
        biggest = self.chance(0.5)
        gt = ">" if biggest else "<"
        form = self.randint(0, 4)
        start = self.randint(0, a.length - 1)
        first = el.code.replace("%s[%s]" % (a.name, k),
                                "%s[%d]" % (a.name, start))
        self.emit(lines, ind, "double %s = %s;" % (m, first))
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++) {"
                  % (k, k, a.length, k))
        t = self.fresh("t")
        self.emit(lines, ind + 1, "double %s = %s;" % (t, el.code))
        if form == 0:
            self.emit(lines, ind + 1, "%s = (%s %s %s) ? %s : %s;"
                      % (m, m, gt, t, m, t))
        elif form == 1:
            self.emit(lines, ind + 1, "%s = (%s %s= %s) ? %s : %s;"
                      % (m, t, gt, m, t, m))
        elif form == 2:
            self.emit(lines, ind + 1, "%s = %s(%s, %s);"
                      % (m, "fmax" if biggest else "fmin", m, t))
        elif form == 3:
            self.emit(lines, ind + 1, "if (%s %s %s)" % (t, gt, m))
            self.emit(lines, ind + 2, "%s = %s;" % (m, t))
        else:
            self.emit(lines, ind + 1, "%s = %s %s %s ? %s : %s;"
                      % (m, t, gt, m, t, m))
        self.emit(lines, ind, "}")
        sc.scalars.append((m, el.bound, True))
        self.features.add("max-scan")
        return True

    def pointer_table(self, sc, lines, ind, ctx):
        """A table of pointers into the arrays in scope and into the
        constant global table adfz_K (constant and duplicated pointers
        mixed), on the stack or the heap, filled inline or by a function
        that is not inlined; read (and written, when every row is writable)
        through the table afterwards."""
        arrs = sc.all("arrays")
        if not arrs:
            return False
        konst = Arr("adfz_K", 8, 1.0, False)
        rows = [self.choice(arrs + [konst]) for _ in range(self.randint(2, 4))]
        writable = all(r.writable for r in rows) and self.chance(0.5)
        ty = "double *" if writable else "const double *"
        name = self.fresh("pt")
        nrows = len(rows)
        if self.chance(0.3):
            self.emit(lines, ind, "%s*%s = (%s*)malloc(%d * sizeof *%s);"
                      % (ty, name, ty, nrows, name))
            self.heap_live.append(name)
            self.features.add("heap-table")
        else:
            self.emit(lines, ind, "%s%s[%d];" % (ty, name, nrows))
        if self.chance(0.3):
            fill = self.fill_helper_for(nrows, writable)
            self.emit(lines, ind, "%s(%s, %s);" % (
                fill, name, ", ".join(r.name for r in rows)))
            self.features.add("table-fill-call")
        else:
            for i, r in enumerate(rows):
                self.emit(lines, ind, "%s[%d] = %s;" % (name, i, r.name))
        minlen = min(r.length for r in rows)
        acc, r = self.fresh("v"), self.fresh("r")
        off = self.randint(0, 3)
        c = self.uniform(0.3, 1.2)
        self.emit(lines, ind, "double %s = 0;" % acc)
        self.emit(lines, ind, "for (int %s = 0; %s < %d; %s++)" % (r, r, nrows, r))
        self.emit(lines, ind + 1, "%s += %s * %s[%s][(%s + %d) %% %d];"
                  % (acc, lit(c), name, r, r, off, minlen))
        bound = c * sum(x.cap for x in rows)
        e = self.squash(E(acc, bound), 5.0)
        if e.code != acc:
            self.emit(lines, ind, "%s = %s;" % (acc, e.code))
        sc.scalars.append((acc, 5.0, True))
        for i, row in enumerate(rows):
            sc.arrays.append(Arr("%s[%d]" % (name, i), row.length, row.cap,
                                 writable, row.root))
        self.features.add("pointer-table")
        return True

    def fill_helper_for(self, nrows, writable):
        """void fillN(T **t, T *p0, ..): stores its pointers into the table,
        not inlined (T is double or const double)."""
        key = (nrows, writable)
        if self.fill_helper is None:
            self.fill_helper = {}
        if key in self.fill_helper:
            return self.fill_helper[key]
        name = self.fresh("fill")
        ty = "double *" if writable else "const double *"
        params = ", ".join("%sp%d" % (ty, i) for i in range(nrows))
        self.out.append("__attribute__((noinline)) static void %s(%s*t, %s) {"
                        % (name, ty, params))
        for i in range(nrows):
            self.out.append("  t[%d] = p%d;" % (i, i))
        self.out.append("}")
        self.out.append("")
        self.fill_helper[key] = name
        return name

    def call_restrict_helper(self, sc, lines, ind, ctx):
        if not self.restrict_helpers:
            return False
        arrs = sc.all("arrays")
        dsts = [a for a in arrs if a.writable and a.cap >= 2.0]
        if not dsts:
            return False
        a = self.choice(dsts)
        srcs = [b for b in arrs if b.root is not a.root]
        if self.chance(0.3) or not srcs:
            srcs.append(Arr("adfz_K", 8, 1.0, False))
        b = self.choice(srcs)
        name = self.choice(self.restrict_helpers)
        self.used.add(name)
        e = self.squash(self.expr(sc, 2), HELPER_ARG)
        self.emit(lines, ind, "%s(%s, %s, %d, %s);" % (
            name, a.name, b.name, self.randint(1, min(a.length, b.length)),
            e.code))
        self.features.add("restrict")
        return True

    def const_table_read(self, sc, lines, ind, ctx):
        """A value read from the constant global table adfz_K at an index
        computed from ints, scaling an expression."""
        name = self.fresh("v")
        e = self.squash(self.expr(sc, 2), 5.0)
        self.emit(lines, ind, "double %s = adfz_K[%s] * %s;"
                  % (name, self.int_expr(sc, 8), e.code))
        sc.scalars.append((name, 5.0, True))
        self.features.add("const-global")
        return True

    def gen_restrict_helper(self):
        """void g(double *restrict v, const double *restrict w, int m,
        double c): v[i] becomes a function of v[i], w[i] and c."""
        name = self.fresh("g")
        sc = Scope()
        sc.scalars = [("c", HELPER_ARG, False), ("t", ABOUND, False),
                      ("u", ABOUND, False)]
        e = self.squash(self.expr(sc, 3), 2.0)
        self.out.append("%svoid %s(double *__restrict__ v, const double "
                        "*__restrict__ w, int m, double c) {"
                        % (self.attr(), name))
        self.out.append("  for (int i = 0; i < m; i++) {")
        self.out.append("    double t = v[i], u = w[i];")
        self.out.append("    v[i] = %s;" % e.code)
        self.out.append("  }")
        self.out.append("}")
        self.out.append("")
        self.restrict_helpers.append(name)

    # -- helper functions --------------------------------------------------
    # -- version 6: constant memory overwritten and read back ----------------
    def gen_state_helper(self):
        """A function that is not inlined updating the constant state in
        place from what it holds and a parameter."""
        name = self.fresh("st_step")
        c = lit(STATE_CAP)
        self.out.append("__attribute__((noinline)) static void %s("
                        "double *p, double c) {" % name)
        self.out.append("  for (int k = 0; k < NST; k++)")
        self.out.append("    p[k] = %s * tanh((p[k] * c + sin(c + k)) / %s);"
                        % (c, c))
        self.out.append("}")
        self.out.append("")
        self.st_helper = name
        self.features.add("state-helper")

    def call_state_helper(self, sc, lines):
        e = self.squash(self.expr(sc, 2), 2.0)
        self.emit(lines, 1, "%s(st, %s);" % (self.st_helper, e.code))
        self.used.add(self.st_helper)

    def attr(self):
        return self.choice(["static ", "static ", "static inline ",
                            "__attribute__((noinline)) static "])

    def gen_scalar_helper(self):
        name = self.fresh("h")
        sc = Scope()
        sc.scalars = [("a", HELPER_ARG, True), ("b", HELPER_ARG, True)]
        self.heap_live = []
        lines = []
        self.block(sc, lines, 1, Ctx(1, False, 0), 3)
        if self.version >= 5 and self.chance(0.4):
            # a call counter: an integer global, inactive without a mark
            self.emit(lines, 1, "adfz_calls++;")
            self.features.add("int-global")
        cap = self.choice([1.0, 2.0, 5.0])
        e = self.squash(self.expr(sc, 3), cap)
        self.emit(lines, 1, "return %s;" % e.code)
        self.out.append("%sdouble %s(double a, double b) {" % (self.attr(), name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.scalar_helpers.append((name, e.bound))
        return name

    def gen_array_helper(self):
        if self.chance(0.5):
            return self.gen_stencil_helper()
        name = self.fresh("g")
        sc = Scope()
        sc.scalars = [("c", HELPER_ARG, False)]
        i = "i"
        lines = []
        self.emit(lines, 1, "for (int i = 0; i < m; i++) {")
        body = Scope(sc)
        body.idx.append((i, 0, 7))
        body.scalars.append(("t", ABOUND, False))
        # v has at least m elements; index only with i (and i - 1 when i > 0)
        t = self.squash(self.expr(body, 3), 2.0)
        self.emit(lines, 2, "double t = v[i];")
        self.emit(lines, 2, "if (i > 0)")
        rec = self.squash(E("(t * v[i - 1] + %s)" % t.code, ABOUND * ABOUND + 2,
                            t.simple), 2.0)
        self.emit(lines, 3, "v[i] = %s;" % rec.code)
        self.emit(lines, 2, "else")
        self.emit(lines, 3, "v[i] = %s;" % t.code)
        self.emit(lines, 1, "}")
        self.out.append("%svoid %s(double *v, int m, double c) {" % (self.attr(), name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.array_helpers.append(name)

    def gen_stencil_helper(self):
        """void g(double *v, int m, double c): v[i] becomes a function of
        v[i-1], v[i], v[i+1] (or of v[i-2] .. v[i+2]) computed into a local
        array, whose reverse loop adds into neighbouring shadow elements
        (adcc gathers those additions per element, GatheredUpdates.cpp, or
        keeps them in registers, AccumulationWindows.cpp)."""
        name = self.fresh("g")
        reach = self.choice([1, 1, 2])
        sc = Scope()
        sc.scalars = [("c", HELPER_ARG, False)]
        names = {-2: "ll", -1: "l", 0: "t", 1: "r", 2: "rr"}
        body = Scope(sc)
        for k in range(-reach, reach + 1):
            body.scalars.append((names[k], ABOUND, False))
        lines = []
        self.emit(lines, 1, "double w[8];")
        self.emit(lines, 1, "for (int i = 0; i < m; i++)")
        self.emit(lines, 2, "w[i] = v[i];")
        self.emit(lines, 1, "for (int i = %d; i < m - %d; i++) {" % (reach, reach))
        for k in range(-reach, reach + 1):
            self.emit(lines, 2, "double %s = v[i %s %d];"
                      % (names[k], "-" if k < 0 else "+", abs(k)))
        e = self.squash(self.expr(body, 3), 2.0)
        self.emit(lines, 2, "w[i] = %s;" % e.code)
        self.emit(lines, 1, "}")
        self.emit(lines, 1, "for (int i = 0; i < m; i++)")
        self.emit(lines, 2, "v[i] = w[i];")
        self.out.append("%svoid %s(double *v, int m, double c) {" % (self.attr(), name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.array_helpers.append(name)
        self.features.add("stencil")

    def gen_reduce_helper(self):
        if self.version >= 20 and self.chance(0.5):
            return self.gen_omp_reduce_helper()
        name = self.fresh("r")
        sc = Scope()
        lines = []
        self.emit(lines, 1, "double acc = 0;")
        self.emit(lines, 1, "for (int i = 0; i < m; i++)")
        body = Scope(sc)
        body.scalars.append(("acc", 1.0, False))
        body.scalars.append(("v[i]", ABOUND, False))
        e = self.squash(self.expr(body, 2), 1.0)
        self.emit(lines, 2, "acc = %s;" % self.squash(
            E("(acc + %s)" % e.code, 2.0, e.simple), 1.0).code)
        self.emit(lines, 1, "return acc;")
        self.out.append("%sdouble %s(const double *v, int m) {" % (self.attr(), name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.reduce_helpers.append((name, 1.0))

    def gen_omp_reduce_helper(self):
        """(version 20) double r(const double *v, int m): the mean over i of
        a term of v[i], summed by an OpenMP parallel loop with
        reduction(+) (docs/parallel.md): its reverse is a parallel region
        whose threads add the iterations' adjoints into v's shadow."""
        name = self.fresh("r")
        sc = Scope()
        body = Scope(sc)
        body.scalars.append(("v[i]", ABOUND, False))
        self.pure = True
        e = self.squash(self.expr(body, 2), 1.0)
        self.pure = False
        lines = []
        self.emit(lines, 1, "double acc = 0;")
        lines.append("#pragma omp parallel for reduction(+ : acc)")
        self.emit(lines, 1, "for (int i = 0; i < m; i++)")
        self.emit(lines, 2, "acc += %s;" % e.code)
        self.emit(lines, 1, "return acc / m;")
        self.out.append("%sdouble %s(const double *v, int m) {" % (self.attr(), name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.reduce_helpers.append((name, 1.0))
        self.features.add("openmp")

    def gen_rec_helper(self):
        name = self.fresh("rec")
        plen = self.randint(1, 4)
        sc = Scope()
        sc.scalars = [("a", HELPER_ARG, False)]
        sc.arrays = [Arr("p", plen, ABOUND, False)]
        lines = []
        base = self.squash(self.expr(sc, 2), 2.0)
        self.emit(lines, 1, "if (d <= 0)")
        self.emit(lines, 2, "return %s;" % base.code)
        # (version 23, in half: the recursive call first, a passed down
        # unchanged, constant at every depth where the caller's is; its
        # reverse sweep then calls itself last)
        first = self.version >= 23 and self.chance(0.5)
        if first:
            self.emit(lines, 1, "double r = %s(a, p, d - 1);" % name)
        t = self.squash(self.expr(sc, 2), HELPER_ARG)
        self.emit(lines, 1, "double t = %s;" % t.code)
        sc.scalars.append(("t", HELPER_ARG, False))
        arg = self.squash(self.expr(sc, 2), HELPER_ARG)
        rcall = "r" if first else "%s(%s, p, d - 1)" % (name, arg.code)
        if self.chance(0.3):
            arg2 = self.squash(self.expr(sc, 1), HELPER_ARG)
            rcall = "(%s + %s(%s, p, d - 2))" % (rcall, name, arg2.code)
        e = self.squash(self.expr(sc, 2), 1.0)
        # make sure the recursive call is used
        comb = self.squash(E("(%s * %s + %s)" % (lit(self.uniform(0.3, 0.9)),
                                                 rcall, e.code), 5.0, False), 2.0)
        self.emit(lines, 1, "return %s;" % comb.code)
        self.out.append("%sdouble %s(double a, const double *p, int d) {"
                        % (self.choice(["static ", "__attribute__((noinline)) static "]),
                           name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.rec_helpers.append((name, 2.0, plen))

    def gen_table(self):
        if len(self.scalar_helpers) < 2:
            return
        name = self.fresh("tab")
        k = self.randint(2, min(3, len(self.scalar_helpers)))
        fns = [self.choice(self.scalar_helpers) for _ in range(k)]
        self.out.append("static double (*const %s[%d])(double, double) = {%s};"
                        % (name, k, ", ".join(f for f, _ in fns)))
        self.out.append("")
        self.tables.append((name, k, max(b for _, b in fns)))

    def gen_apply_helper(self):
        name = self.fresh("apply")
        sc = Scope()
        sc.scalars = [("a", HELPER_ARG, False), ("b", HELPER_ARG, False)]
        sc.fptrs = ["fp"]
        e = self.squash(self.expr(sc, 3), 2.0)
        lines = []
        t = self.squash(E("fp(%s, b)" % self.squash(self.expr(sc, 1), HELPER_ARG).code,
                          HELPER_BOUND, False), HELPER_ARG)
        self.emit(lines, 1, "double t = %s;" % t.code)
        self.emit(lines, 1, "return %s;" % self.squash(
            E("(t * %s + fp(a, t))" % e.code, HELPER_ARG * 2 + HELPER_BOUND,
              False), 2.0).code)
        self.out.append("%sdouble %s(double (*fp)(double, double), double a, double b) {"
                        % (self.attr(), name))
        self.out.extend(lines)
        self.out.append("}")
        self.out.append("")
        self.apply_helpers.append((name, 2.0))

    # -- the program -------------------------------------------------------
    def program(self):
        nx = self.randint(1, 5)
        nout = self.randint(1, 3)
        ni = self.randint(1, NMAX)
        ret = self.chance(0.7)
        s_active = self.chance(0.8)
        inplace_x = self.chance(0.4)

        # helpers; their bounds are needed before f is generated
        nh = self.randint(0, 4)
        for _ in range(nh):
            self.gen_scalar_helper()
        if self.scalar_helpers and self.chance(0.5):
            self.gen_table()
        if self.scalar_helpers and self.chance(0.3):
            self.gen_apply_helper()
        if self.chance(0.4):
            self.gen_array_helper()
        if self.chance(0.3):
            self.gen_reduce_helper()
        if self.chance(0.4):
            self.gen_rec_helper()
        konst = []
        if self.version >= 5:
            konst = [self.uniform(-1, 1) for _ in range(8)]
            if self.chance(0.5):
                self.gen_restrict_helper()
            if nx >= 2 and self.chance(0.4):
                i = self.randint(0, nx - 2)
                self.tied.append((i, self.randint(i + 1, nx - 1)))
                self.features.add("ties")

        st0 = []
        if self.version >= 6 and self.chance(0.4):
            self.nst = self.randint(1, 3)
            st0 = [self.uniform(-1, 1) for _ in range(self.nst)]
            self.features.add("const-state")
            if self.chance(0.5):
                self.gen_state_helper()
        ws0, wsk = [], 1.0
        if self.version >= 14 and self.chance(0.4):
            self.nws = self.randint(2, 4)
            ws0 = [self.uniform(-1, 1) for _ in range(self.nws)]
            wsk = self.uniform(0.5, 1.5)
            self.features.add("zeroed-shadow-struct")
        if self.version >= 15 and self.chance(0.4):
            self.ncl = self.randint(3, 6)
            self.features.add("shared-int-table")
            if self.version >= 17 and self.chance(0.5):
                self.cl_void = True
                self.features.add("void-field-copy")
                if self.version >= 19 and self.chance(0.6):
                    self.cl_bytes = self.choice(["char", "cursor", "memmove"])
                    self.cl_writes = self.choice(["vr", "v", "mixed"])
                    self.features.add("byte-field-copy")
                    if self.cl_writes != "vr":
                        self.features.add("aliasing-field-writes")
        if self.version >= 24:
            self.v24_setup()
        if self.version >= 29:
            self.v29_setup()

        sc = Scope()
        xcap = 20.0 if inplace_x else 1.5
        self.nx, self.xcap = nx, xcap
        sc.arrays.append(Arr("x", nx, xcap, inplace_x))
        sc.scalars.append(("s", 1.5, False))
        sc.idx.append(("n", 1, NMAX + 1))
        # the constant state's elements are read and written as scalars
        for k in range(self.nst):
            sc.scalars.append(("st[%d]" % k, STATE_CAP, True))
        self.heap_live = []
        lines = []
        if self.nws:
            # (version 14) the data behind ws's null shadow pointer: read as
            # given (no derivative), overwritten with values that have
            # derivatives, read back (by later statements and the outputs)
            sc.scalars.append(("ws->k", 1.5, False))
            for k in range(self.nws):
                e = self.squash(self.expr(sc, 2), STATE_CAP)
                self.emit(lines, 1, "ws->p[%d] = %s;" % (k, e.code))
            sc.arrays.append(Arr("ws->p", self.nws, STATE_CAP, True))
        if self.ncl:
            # (version 15) values put into cells by counts in an integer
            # table that the shadow struct shares with the primal (the
            # same pointer): counts raised after a conditional counter
            # (a phi of two loads of the count at -O2), a table cleared by
            # a loop or by memset; read back summed per cell
            if self.chance(0.5):
                self.emit(lines, 1, "memset(cl->cnt, 0, NCB * sizeof(int));")
            else:
                self.emit(lines, 1, "for (int b = 0; b < NCB; ++b)")
                self.emit(lines, 2, "cl->cnt[b] = 0;")
            self.emit(lines, 1, "cl->nloc = 0;")
            mul = self.randint(1, 3)
            for j in range(self.ncl):
                e = self.squash(self.expr(sc, 2), STATE_CAP)
                self.emit(lines, 1, "{")
                self.emit(lines, 2, "int b = (%d + %d * n) %% NCB;" % (j, mul))
                self.emit(lines, 2, "int o = b * NCAP + cl->cnt[b];")
                self.emit(lines, 2, "if (b < NCB / 2)")
                self.emit(lines, 3, "cl->nloc++;")
                self.emit(lines, 2, "cl->cnt[b]++;")
                if self.cl_void and (self.cl_writes == "vr" or (
                        self.cl_writes == "mixed" and j % 2 == 0)):
                    self.emit(lines, 2, "((double *)cl->vr)[o] = %s;" % e.code)
                elif self.cl_void:
                    # (version 19) through the other field, the same memory
                    self.emit(lines, 2, "cl->v[o] = %s;" % e.code)
                else:
                    self.emit(lines, 2, "cl->v[o] = %s;" % e.code)
                self.emit(lines, 1, "}")
            if self.cl_void:
                # (version 17) each cell's last value over its first, by a
                # helper that copies the double's bytes through the void *
                self.emit(lines, 1, "for (int b = 0; b < NCB; ++b)")
                self.emit(lines, 2, "if (cl->cnt[b] > 1)")
                self.emit(lines, 3, "adfz_cl_move(cl, b * NCAP, "
                          "b * NCAP + cl->cnt[b] - 1);")
            self.emit(lines, 1, "double cl_sum = 0;")
            self.emit(lines, 1, "for (int b = 0; b < NCB; ++b)")
            self.emit(lines, 2, "for (int k = 0; k < cl->cnt[b]; ++k)")
            self.emit(lines, 3, "cl_sum += (1 + 0.25 * b) * cl->v[b * NCAP + k];")
            sc.scalars.append(("cl_sum", 2 * self.ncl * STATE_CAP, False))
        if inplace_x:
            self.features.add("inplace-x")
        top = Ctx(0, False, 0)
        for _ in range(self.randint(0, 2)):
            self.local_array(sc, lines, 1, top, self.chance(0.4))
        for _ in range(self.randint(1, 3)):
            self.decl_scalar(sc, lines, 1, top)
        if self.st_helper and self.chance(0.5):
            self.call_state_helper(sc, lines)
        if self.version >= 24:
            self.v24_begin_f(sc, lines)
        if self.version >= 29:
            self.v29_begin_f(sc, lines)
        self.block(sc, lines, 1, top, self.randint(5, 12))
        if self.st_helper and (self.st_helper not in self.used or
                               self.chance(0.5)):
            self.call_state_helper(sc, lines)
        # helpers not called yet are called now, and every top-level value
        # reaches an output
        terms = []
        if self.version >= 24:
            self.v24_end_f(sc, lines, terms)
        if self.version >= 29:
            self.v29_end_f(sc, lines)
        for (kind, lst) in (("scalar", self.scalar_helpers),
                            ("table", self.tables),
                            ("apply", self.apply_helpers),
                            ("reduce", self.reduce_helpers),
                            ("rec", self.rec_helpers)):
            for h in lst:
                if h[0] not in self.used:
                    e = self.call_kind(sc, 2, kind, h)
                    if e is not None:
                        terms.append(e)
        if self.array_helpers and not self.used & set(self.array_helpers):
            self.call_array_helper(sc, lines, 1, top)
        if self.restrict_helpers and \
                not self.used & set(self.restrict_helpers):
            self.call_restrict_helper(sc, lines, 1, top)
        for (name, cap, _) in sc.scalars:
            terms.append(E(name, cap))
        for i in range(nx):
            if self.chance(0.5):
                terms.append(self.unary_of(E("x[%d]" % i, xcap)))
        for a in sc.arrays:
            terms.append(E("%s[%d]" % (a.name, self.randint(0, a.length - 1)),
                           a.cap))
        groups = [[] for _ in range(nout)]
        for t in terms:
            groups[self.randint(0, nout - 1)].append(t)
        for j in range(nout):
            e = self.expr(sc, self.randint(1, 4))
            for t in groups[j]:
                c = self.uniform(-1, 1)
                e = E("%s + %s * %s" % (e.code, lit(c), t.code),
                      e.bound + abs(c) * t.bound, False)
            e = self.squash(e, SQUASH_AT)
            self.emit(lines, 1, "out[%d] = %s;" % (j, e.code))
            if self.chance(0.2):
                e = self.squash(self.expr(sc, 2), SQUASH_AT)
                self.emit(lines, 1, "out[%d] += %s;" % (j, e.code))
        retline = None
        if ret:
            e = self.squash(self.expr(sc, self.randint(1, 4)), SQUASH_AT)
            retline = "return %s;" % e.code
            # read what the heap blocks hold before freeing them
        for h in self.heap_live:
            self.emit(lines, 1, "free(%s);" % h)
        if ret:
            # the return expression may read heap blocks: compute it first
            if self.heap_live:
                lines.insert(len(lines) - len(self.heap_live),
                             "  double ret = %s;" % retline[len("return "):-1])
                self.emit(lines, 1, "return ret;")
            else:
                self.emit(lines, 1, retline)

        xdecl = "double *x" if inplace_x else "const double *x"
        rtype = "double" if ret else "void"
        stdecl = ", double *st" if self.nst else ""
        if self.nws:
            stdecl += ", struct adfz_ws *ws"
        if self.ncl:
            stdecl += ", struct adfz_cells *cl"
        body = ["static %s f(%s, double s, int n, double *out%s) {" % (
            rtype, xdecl, stdecl)]
        body.extend(lines)
        body.append("}")

        x0 = [self.uniform(-1, 1) for _ in range(nx)]
        tie_of = [-1] * nx
        for (i, j) in self.tied:
            x0[j] = x0[i]
            tie_of[j] = i
        w = [self.choice([-1, 1]) * self.uniform(0.5, 1.5) for _ in range(nout)]
        s0 = self.uniform(-1, 1)
        # (Drawn last: the program is the same as in version 3.)
        noneed = self.chance(0.5)
        if noneed:
            self.features.add("dupnoneed")
        hvp = self.version >= 5 and self.chance(0.3)
        if hvp:
            self.features.add("hvp")
        # (version 16, drawn after all else: the program is the same as in
        # version 15 but for the check of split mode)
        split_mode = self.version >= 16 and self.chance(0.5)
        if split_mode:
            self.features.add("split")
        # (version 18, drawn after all else: split forward mode, which may
        # not share a file with split mode's __enzyme_augmentfwd of f, and
        # forward over forward)
        fwd_split = (self.version >= 18 and not split_mode and
                     self.chance(0.5))
        if fwd_split:
            self.features.add("fwdsplit")
        fof = self.version >= 18 and self.chance(0.6 if self.nws else 0.2)
        if fof:
            self.features.add("fwd-over-fwd")
        # (version 21, drawn after all else: reverse over forward. Not with
        # cells, whose untyped byte copies it refuses in the inner shadow
        # copy, nor with an OpenMP loop, whose Hessian is refused.)
        rof = (self.version >= 21 and hvp and not self.ncl and
               "openmp" not in self.features and self.chance(0.6))
        if rof:
            self.features.add("rev-over-fwd")
        if self.gacc:
            # (version 24) higher derivatives through a global with a
            # shadow are not supported yet (docs/status.md): no nested
            # checks of programs with the global accumulator
            hvp = fof = rof = False
            self.features -= {"hvp", "fwd-over-fwd", "rev-over-fwd"}
        globals_v5 = ""
        if self.version >= 5:
            globals_v5 = GLOBALS_V5.format(k=", ".join(lit(v) for v in konst))
        main = MAIN_TEMPLATE
        if self.version >= 7:
            globals_v5 += ("typedef double adfz_v2 "
                           "__attribute__((vector_size(16)));\n")
        if self.version >= 8:
            globals_v5 += GLOBALS_V8
            # The reverse-mode gradient accumulates into a shadow that
            # already holds values (gradients summed over calls), where
            # x is not also an output (written in place), whose shadow's
            # entry values would be seeds.
            if not inplace_x:
                for old, new in ACCUMULATE_CALLS:
                    assert old in main
                    main = main.replace(old, new)
                self.features.add("accumulate")
        if self.version >= 11:
            globals_v5 += GLOBALS_V11
        if self.version >= 25:
            globals_v5 += GLOBALS_V25
        if self.version >= 26:
            globals_v5 += GLOBALS_V26
        if self.version >= 12:
            globals_v5 += GLOBALS_V12
            assert BATCHED_AT in main
            main = main.replace(BATCHED_AT, BATCHED_V12 + BATCHED_AT)
        if self.version >= 6:
            globals_v5 += STATE_V6.format(
                nst=max(self.nst, 1), has_st=int(self.nst > 0),
                st0=", ".join(repr(v) for v in st0) or "0")
            for old, new in STATE_CALLS:
                assert old in main
                main = main.replace(old, new)
        if self.version >= 14:
            globals_v5 += ZEROED_V14.format(
                nws=max(self.nws, 1), has_ws=int(self.nws > 0),
                ws0=", ".join(repr(v) for v in ws0) or "0", wsk=repr(wsk))
            for old, new in ZEROED_CALLS:
                assert old in main
                main = main.replace(old, new)
        if self.version >= 15:
            cells = CELLS_V15.format(has_cl=int(self.ncl > 0))
            if self.cl_void:
                for old, new in CELLS_VOID_V17:
                    assert old in cells
                    cells = cells.replace(old, new)
            if self.cl_bytes:
                old, new = CELLS_BYTES_V19[self.cl_bytes]
                assert old in cells
                cells = cells.replace(old, new)
            globals_v5 += cells
            for old, new in CELLS_CALLS:
                assert old in main
                main = main.replace(old, new)
        if split_mode:
            globals_v5 += SPLIT_V16
            assert SPLIT_AT in main
            main = main.replace(SPLIT_AT, SPLIT_CHECK_V16 + SPLIT_AT)
        if fwd_split:
            globals_v5 += FWD_SPLIT_V18
            assert FWD_SPLIT_AT in main
            main = main.replace(FWD_SPLIT_AT, FWD_SPLIT_AT + FWD_SPLIT_CHECK_V18)
        if rof:
            assert ROF_FN_AT in main and ROF_CALL_AT in main
            main = main.replace(ROF_FN_AT, ROF_FN_V21 + ROF_FN_AT)
            main = main.replace(ROF_CALL_AT, ROF_CALL_V21 + ROF_CALL_AT)
        if fof:
            assert FOF_FN_AT in main and FOF_CALL_AT in main
            main = main.replace(FOF_FN_AT, FOF_FN_V18 + FOF_FN_AT)
            main = main.replace(FOF_CALL_AT, FOF_CALL_V18 + FOF_CALL_AT)

        head = HEADER_TEMPLATE.format(
            seed=self.seed, version=self.version,
            features=" ".join(sorted(self.features)) or "-")
        params = PARAMS_TEMPLATE.format(
            nx=nx, nout=nout, ni=ni, ret=int(ret), s_active=int(s_active),
            noneed=int(noneed),
            out_mark="enzyme_dupnoneed" if noneed else "enzyme_dup",
            x0=", ".join(repr(v) for v in x0), w=", ".join(repr(v) for v in w),
            s0=repr(s0), hvp=int(hvp), tie_of=", ".join(str(t) for t in tie_of))
        return "\n".join([head, params + globals_v5] + self.out + body) + \
            "\n" + main


# a function pointer parameter may point to any scalar helper
HELPER_BOUND = 5.0

HEADER_TEMPLATE = """\
/* adfuzz program: seed {seed}, generator version {version}.
 * Regenerate: python3 tools/adfuzz/gen.py --seed {seed}
 * Features: {features}
 * Checks the derivatives of f by reverse mode, forward mode and central
 * finite differences against each other; exits 1 on a mismatch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;

/* the element of arrays of structs that are copied whole */
struct adfz_pt {{
  double v;
  int k;
  double w;
}};

/* branch trace: every branch on a floating-point value goes through here */
static unsigned long adfz_trace;
static int adfz_br(int c) {{
  adfz_trace = adfz_trace * 1000003u + (c ? 2u : 1u);
  return c;
}}
"""

PARAMS_TEMPLATE = """\
#define NX {nx}
#define NOUT {nout}
#define NI {ni}
#define HAS_RET {ret}
#define S_ACTIVE {s_active}
/* out passed enzyme_dupnoneed: its primal values are not checked */
#define OUT_NONEED {noneed}
#define OUT_MARK {out_mark}
static const double X0[NX] = {{{x0}}};
static const double W[NOUT] = {{{w}}};
static const double S0 = {s0};
/* second derivatives: forward mode over the reverse-mode gradient */
#define HVP {hvp}
/* ties: x[i] starts equal to x[TIE_OF[i]] (>= 0), which it follows when the
 * test point moves; such inputs are not differenced (a kink) */
static const int TIE_OF[NX] = {{{tie_of}}};
"""

GLOBALS_V5 = """\
/* a constant table (inactive) and a call counter (an integer global) */
static const double adfz_K[8] = {{{k}}};
static int adfz_calls;
"""

# version 6: the constant state st (enzyme_const) that f overwrites with
# values that have derivatives and reads back; every call of f starts from
# ST0 (a fresh copy). The Hessian's inner gradient passes its own copy
# enzyme_dup with a zeroed shadow (a scratch shadow inside code
# differentiated again is an error).
STATE_V6 = """\
/* the constant state f overwrites and reads back (none if HAS_ST is 0) */
#define HAS_ST {has_st}
#define NST {nst}
static const double ST0[NST] = {{{st0}}};
#if HAS_ST
static double adfz_st_buf[NST];
static double *adfz_st_fresh(void) {{
  memcpy(adfz_st_buf, ST0, sizeof adfz_st_buf);
  return adfz_st_buf;
}}
#define ST_ARG , adfz_st_fresh()
#define ST_CONST , enzyme_const, adfz_st_fresh()
#define ST_LOCALS double st_l[NST], dst_l[NST]; \\
  memcpy(st_l, ST0, sizeof st_l); memset(dst_l, 0, sizeof dst_l);
#define ST_DUP , enzyme_dup, st_l, dst_l
#else
#define ST_ARG
#define ST_CONST
#define ST_LOCALS
#define ST_DUP
#endif
"""

# version 14: a struct holding a pointer to data f overwrites and reads back,
# passed enzyme_dup with a shadow the caller zeroes (a zero-initialized
# global; in the Hessian's inner gradient a local `= {0}`): the shadow's
# pointer is null where the primal's points at data. What f writes there
# and reads back keeps its derivative (a scratch shadow of the primal
# address within the call: lost at -O0 until 2026-12-06); the data as
# given has none. Every call starts from WS0 (a fresh copy).
ZEROED_V14 = """\
/* the struct whose shadow the caller zeroes (none if HAS_WS is 0) */
#define HAS_WS {has_ws}
#define NWS {nws}
static const double WS0[NWS] = {{{ws0}}};
#if HAS_WS
struct adfz_ws {{
  double *p;
  double k;
}};
static double adfz_ws_buf[NWS];
static struct adfz_ws adfz_ws_prim;
static struct adfz_ws adfz_dws, adfz_dws2; /* zero: null shadow pointers */
static struct adfz_ws *adfz_ws_fresh(void) {{
  memcpy(adfz_ws_buf, WS0, sizeof adfz_ws_buf);
  adfz_ws_prim.p = adfz_ws_buf;
  adfz_ws_prim.k = {wsk};
  return &adfz_ws_prim;
}}
#define WS_ARG , adfz_ws_fresh()
/* (ws->k's shadow is zero in each call: not a seed of forward mode) */
#define WS_DUP , enzyme_dup, adfz_ws_fresh(), (adfz_dws.k = 0, &adfz_dws)
#define WS_DUP2 , enzyme_dup, adfz_ws_fresh(), (adfz_dws.k = 0, &adfz_dws), \\
  (adfz_dws2.k = 0, &adfz_dws2)
#define WS_LOCALS double ws_b[NWS]; memcpy(ws_b, WS0, sizeof ws_b); \\
  struct adfz_ws ws_l = {{ws_b, {wsk}}}, dws_l = {{0}};
#define WS_DUPL , enzyme_dup, &ws_l, &dws_l
#else
#define WS_ARG
#define WS_DUP
#define WS_DUP2
#define WS_LOCALS
#define WS_DUPL
#endif
"""

# version 15: a struct of cells (CoMD's link cells) whose shadow shares the
# primal's integer table of counts (the same pointer, as Enzyme users build
# shadow structs) and has its own zeroed values. The counts are numbers:
# no derivative code may write them (forward mode wrote a tangent of 1 into
# the shadow's count, the primal's own, at -O2 until 2026-12-06). Every
# call starts from zero counts; the shadow's values are zeroed per call.
CELLS_V15 = """\
/* cells whose shadow shares the count table (none if HAS_CL is 0) */
#define HAS_CL {has_cl}
#define NCB 4
#define NCAP 8
#if HAS_CL
struct adfz_cells {{
  int *cnt;
  int nloc;
  double *v;
}};
static int adfz_cnt[NCB];
static double adfz_cl_v[NCB * NCAP], adfz_dcl_v[2][NCB * NCAP];
static struct adfz_cells adfz_cl_prim, adfz_dcl[2];
static struct adfz_cells *adfz_cl_fresh(void) {{
  memset(adfz_cnt, 0, sizeof adfz_cnt);
  adfz_cl_prim = (struct adfz_cells){{adfz_cnt, 0, adfz_cl_v}};
  return &adfz_cl_prim;
}}
static struct adfz_cells *adfz_dcl_fresh(int l) {{
  memset(adfz_dcl_v[l], 0, sizeof adfz_dcl_v[l]);
  adfz_dcl[l] = (struct adfz_cells){{adfz_cnt, 0, adfz_dcl_v[l]}};
  return &adfz_dcl[l];
}}
#define CL_ARG , adfz_cl_fresh()
#define CL_DUP , enzyme_dup, adfz_cl_fresh(), adfz_dcl_fresh(0)
#define CL_DUP2 , enzyme_dup, adfz_cl_fresh(), adfz_dcl_fresh(0), \\
  adfz_dcl_fresh(1)
#define CL_LOCALS int cl_n[NCB] = {{0}}; \\
  double cl_v[NCB * NCAP], dcl_v[NCB * NCAP] = {{0}}; \\
  struct adfz_cells cl_l = {{cl_n, 0, cl_v}}, dcl_l = {{cl_n, 0, dcl_v}};
#define CL_DUPL , enzyme_dup, &cl_l, &dcl_l
#else
#define CL_ARG
#define CL_DUP
#define CL_DUP2
#define CL_LOCALS
#define CL_DUPL
#endif
"""

# version 17: the cells' values also as a `void *` (CoMD's `void *r`), the
# same memory, written through by f and moved between cells by a noinline
# helper that copies a double's bytes through it (an i64 load and store
# from -O1 that nothing in the helper types: the adjoint was lost silently
# until 2026-12-06).
CELLS_VOID_V17 = [
    ("  double *v;\n};", "  double *v;\n  void *vr; /* v, untyped */\n};\n"
     "__attribute__((noinline)) static void adfz_cl_move(\n"
     "    struct adfz_cells *cl, int to, int from) {\n"
     "  memcpy((double *)cl->vr + to, (double *)cl->vr + from, "
     "sizeof(double));\n}"),
    ("{adfz_cnt, 0, adfz_cl_v}", "{adfz_cnt, 0, adfz_cl_v, adfz_cl_v}"),
    ("{adfz_cnt, 0, adfz_dcl_v[l]}",
     "{adfz_cnt, 0, adfz_dcl_v[l], adfz_dcl_v[l]}"),
    ("{cl_n, 0, cl_v}", "{cl_n, 0, cl_v, cl_v}"),
    ("{cl_n, 0, dcl_v}", "{cl_n, 0, dcl_v, dcl_v}"),
]

# version 19: adfz_cl_move's copy indexes the void * by bytes (a `char *`
# cast, a `char *` cursor, a memmove), and f writes the values through
# cl->vr, through cl->v (another field, the same memory: nothing in the
# program types the copy; without TBAA its adjoint was lost at -O1..-O3,
# silently, until 2026-12-06, now a located error) or through both.
CELLS_BYTES_V19 = {
    "char": ("  memcpy((double *)cl->vr + to, (double *)cl->vr + from, "
             "sizeof(double));\n",
             "  memcpy((char *)cl->vr + sizeof(double) * to,\n"
             "         (char *)cl->vr + sizeof(double) * from, "
             "sizeof(double));\n"),
    "cursor": ("  memcpy((double *)cl->vr + to, (double *)cl->vr + from, "
               "sizeof(double));\n",
               "  char *p = (char *)cl->vr;\n"
               "  memcpy(p + 8 * to, p + 8 * from, 8);\n"),
    "memmove": ("  memcpy((double *)cl->vr + to, (double *)cl->vr + from, "
                "sizeof(double));\n",
                "  memmove((char *)cl->vr + sizeof(double) * to,\n"
                "          (char *)cl->vr + sizeof(double) * from, "
                "sizeof(double));\n"),
}

# (old, new): the calls of f in MAIN_TEMPLATE after ZEROED_CALLS, with cl
CELLS_CALLS = [
    ("ob ST_ARG WS_ARG);", "ob ST_ARG WS_ARG CL_ARG);"),
    ("dob ST_DUP WS_DUPL);", "dob ST_DUP WS_DUPL CL_DUPL);"),
    ("dob ST_CONST WS_DUP);", "dob ST_CONST WS_DUP CL_DUP);"),
    ("dob ST_CONST WS_DUP));", "dob ST_CONST WS_DUP CL_DUP));"),
    ("dob1 ST_CONST WS_DUP2);", "dob1 ST_CONST WS_DUP2 CL_DUP2);"),
    ("  WS_LOCALS\n", "  WS_LOCALS\n  CL_LOCALS\n"),
]

# version 16: the gradient by split mode (__enzyme_augmentfwd, then
# __enzyme_reverse given its tape) against the one call's, with the state
# (version 6) passed enzyme_dup with a zero shadow and the struct of
# version 14 with a zeroed shadow: its scratch shadow lives from the
# augmented sweep to the reverse sweep (a crash before 2026-12-06: split
# mode did not guard null shadow pointers). Inserted before SPLIT_AT.
SPLIT_V16 = """\
void *__enzyme_augmentfwd(void *, ...);
#if S_ACTIVE
double __enzyme_reverse(void *, ...);
#define S_SPLIT s
#define REV_SPLIT(call) (call)
#else
void __enzyme_reverse(void *, ...);
#define S_SPLIT enzyme_const, s
#define REV_SPLIT(call) ((call), 0.0)
#endif
#if HAS_RET
#define SEED_SPLIT 1.0,
#else
#define SEED_SPLIT
#endif
"""
SPLIT_AT = "  /* forward mode: one call per input gives a column of the Jacobian */"
SPLIT_CHECK_V16 = r"""  /* split mode: the augmented sweep, then the reverse sweep given its
   * tape; the gradient as the one call's */
  {
    double xb[NX], dx[NX], ob[NOUT], dob[NOUT];
    ST_LOCALS
    WS_LOCALS
    CL_LOCALS
    memcpy(xb, x, sizeof xb);
    for (int i = 0; i < NX; i++)
      dx[i] = 0;
    for (int j = 0; j < NOUT; j++) {
      ob[j] = 0;
      dob[j] = W[j];
    }
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, xb, dx, S_SPLIT,
                                     enzyme_const, NI, enzyme_dup, ob,
                                     dob ST_DUP WS_DUPL CL_DUPL);
    double ds = REV_SPLIT(__enzyme_reverse((void *)f, enzyme_dup, xb, dx,
                                           S_SPLIT, enzyme_const, NI,
                                           enzyme_dup, ob,
                                           dob ST_DUP WS_DUPL CL_DUPL,
                                           SEED_SPLIT tape));
    for (int i = 0; i < NX; i++)
      if (!close_to(dx[i], grev[i], TOL_FWD_REV, 1))
        mismatch("split vs one-call reverse grad", i, dx[i], grev[i]);
    if (S_ACTIVE && !close_to(ds, grev[NX], TOL_FWD_REV, 1))
      mismatch("split vs one-call reverse grad", NX, ds, grev[NX]);
  }

"""

# version 18: split forward mode (__enzyme_augmentfwd, then __enzyme_fwdsplit
# given its tape), one call per input, against the forward-mode columns,
# with the state and the structs of versions 14 and 15 given local shadows
# (the zeroed struct's null shadow pointer: the tangent sweep wrote through
# it, a crash before 2026-12-06). Inserted after FWD_SPLIT_AT.
FWD_SPLIT_V18 = """\
void *__enzyme_augmentfwd(void *, ...);
#if HAS_RET
double __enzyme_fwdsplit(void *, ...);
#define FWD_SPLIT_RESULT(call) (call)
#else
void __enzyme_fwdsplit(void *, ...);
#define FWD_SPLIT_RESULT(call) ((call), 0.0)
#endif
#if S_ACTIVE
#define S_FWD_REC s
#define S_FWD_TAN(i) s, (double)((i) == NX)
#else
#define S_FWD_REC enzyme_const, s
#define S_FWD_TAN(i) enzyme_const, s
#endif
"""
FWD_SPLIT_AT = """    jfwd[i][NOUT] = dret;
    gfwd[i] = g;
  }
"""
FWD_SPLIT_CHECK_V18 = r"""
  /* split forward mode: the recording sweep, then the tangent sweep given
   * its tape; each column as the one call's */
  for (int i = 0; i < NIN; i++) {
    double xb[NX], dx[NX], ob[NOUT], dob[NOUT];
    ST_LOCALS
    WS_LOCALS
    CL_LOCALS
    memcpy(xb, x, sizeof xb);
    for (int k = 0; k < NX; k++)
      dx[k] = k == i;
    for (int j = 0; j < NOUT; j++)
      ob[j] = dob[j] = 0;
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, xb, dx,
                                     S_FWD_REC, enzyme_const, NI, enzyme_dup,
                                     ob, dob ST_DUP WS_DUPL CL_DUPL);
    double dret = FWD_SPLIT_RESULT(__enzyme_fwdsplit(
        (void *)f, enzyme_dup, xb, dx, S_FWD_TAN(i), enzyme_const, NI,
        enzyme_dup, ob, dob ST_DUP WS_DUPL CL_DUPL, tape));
    for (int j = 0; j <= NOUT; j++) {
      double got = j < NOUT ? dob[j] : dret;
      if (!close_to(got, jfwd[i][j], TOL_FWD_REV, 1e-300))
        mismatch("split forward vs one-call forward", i * (NOUT + 1) + j,
                 got, jfwd[i][j]);
    }
  }
"""

# version 18: forward mode over forward mode, d/dv_i of the forward-mode
# derivative of L along e_i (the Hessian's diagonal), with the state and
# the structs of versions 14 and 15 given local shadows by the inner
# request; the outer request sees those locals' shadows as its own zeroed
# ones, so the zeroed struct's pointer has a null shadow at both levels
# (their scratch shadows were one before 2026-12-06). Against central
# differences of the inner derivative, where no branch flips and the
# quotients at two steps agree.
FOF_FN_AT = "\nint main(void) {\n"
FOF_FN_V18 = r"""
/* (f may return nothing: __enzyme_fwddiff is then declared void) */
double __enzyme_fwddiff_fof(void *, ...);

/* the derivative of L along e_i at v, by forward mode */
static double adfz_dcol(const double *v, int i) {
  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s;
  ST_LOCALS
  WS_LOCALS
  CL_LOCALS
  split(v, xb, &s);
  for (int k = 0; k < NX; k++)
    dx[k] = k == i;
  for (int j = 0; j < NOUT; j++)
    ob[j] = dob[j] = 0;
#if S_ACTIVE
  double g = FWD_RESULT(__enzyme_fwddiff((void *)f, enzyme_dup, xb, dx,
                                         enzyme_dup, s, (double)(i == NX),
                                         enzyme_const, NI, enzyme_dup, ob,
                                         dob ST_DUP WS_DUPL CL_DUPL));
#else
  double g = FWD_RESULT(__enzyme_fwddiff((void *)f, enzyme_dup, xb, dx,
                                         enzyme_const, s, enzyme_const, NI,
                                         enzyme_dup, ob,
                                         dob ST_DUP WS_DUPL CL_DUPL));
#endif
  for (int j = 0; j < NOUT; j++)
    g += W[j] * dob[j];
  return g;
}

/* the Hessian's diagonal by forward over forward mode */
static void check_fwd_over_fwd(const double *v) {
  double x[NX], s;
  split(v, x, &s);
  unsigned long t0 = trace_at(x, s);
  int compared = 0;
  for (int i = 0; i < NIN; i++) {
    double vb[NIN + 1], dv[NIN + 1];
    memcpy(vb, v, sizeof vb);
    for (int k = 0; k <= NIN; k++)
      dv[k] = k == i;
    double hii = __enzyme_fwddiff_fof((void *)adfz_dcol, enzyme_dup, vb, dv,
                                      enzyme_const, i);
    if (tied(i))
      continue;
    double q[2], h0 = 1e-5 * (fabs(v[i]) > 1 ? fabs(v[i]) : 1);
    int flips = 0;
    for (int r = 0; r < 2; r++) {
      double h = r ? h0 / 4 : h0, w[NIN + 1];
      volatile double tp = v[i] + h, tm = v[i] - h;
      memcpy(w, v, sizeof w);
      w[i] = tp;
      split(w, x, &s);
      flips |= trace_at(x, s) != t0;
      double gp = adfz_dcol(w, i);
      w[i] = tm;
      split(w, x, &s);
      flips |= trace_at(x, s) != t0;
      double gm = adfz_dcol(w, i);
      q[r] = (gp - gm) / (tp - tm);
    }
    if (flips || !close_to(q[0], q[1], 1e-5, 1))
      continue;
    compared++;
    if (!close_to(hii, q[0], 1e-4, 1))
      mismatch("forward-over-forward vs finite-difference hessian diagonal",
               i, hii, q[0]);
  }
  printf("forward over forward: %d entries compared with finite "
         "differences\n", compared);
}
"""
FOF_CALL_AT = "#if HVP\n  check_hessian(v);\n#endif\n"

# (version 21) the Hessian by reverse mode over forward mode
ROF_FN_AT = "/* Hessian columns by forward mode over reverse mode"
ROF_FN_V21 = r"""void __enzyme_autodiff_rof(void *, ...);

/* The derivative of L at v in direction dv by forward mode: differentiated
 * again by reverse mode below. */
static double dL_dir(const double *v, const double *dv) {
  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s, ds;
  ST_LOCALS
  WS_LOCALS
  CL_LOCALS
  split(v, xb, &s);
  split(dv, dx, &ds);
  for (int j = 0; j < NOUT; j++)
    ob[j] = dob[j] = 0;
#if S_ACTIVE
  double r = FWD_RESULT(__enzyme_fwddiff((void *)f, enzyme_dup, xb, dx,
                                         enzyme_dup, s, ds, enzyme_const, NI,
                                         enzyme_dup, ob, dob ST_DUP WS_DUPL
                                         CL_DUPL));
#else
  double r = FWD_RESULT(__enzyme_fwddiff((void *)f, enzyme_dup, xb, dx,
                                         enzyme_const, s, enzyme_const, NI,
                                         enzyme_dup, ob, dob ST_DUP WS_DUPL
                                         CL_DUPL));
#endif
  for (int j = 0; j < NOUT; j++)
    r += W[j] * dob[j];
  return r;
}

/* Hessian columns by reverse mode over forward mode (the gradient of the
 * derivative in direction e_i is column i), against forward over reverse. */
static void check_hessian_rof(const double *v, double H[NIN + 1][NIN + 1]) {
  for (int i = 0; i < NIN; i++) {
    double vb[NIN + 1], hv[NIN + 1], e[NIN + 1];
    memcpy(vb, v, sizeof vb);
    for (int k = 0; k <= NIN; k++) {
      e[k] = k == i;
      hv[k] = 0;
    }
    __enzyme_autodiff_rof((void *)dL_dir, enzyme_dup, vb, hv, enzyme_const,
                          e);
    for (int k = 0; k < NIN; k++)
      if (!close_to(hv[k], H[k][i], 1e-8, 1))
        mismatch("reverse-over-forward vs forward-over-reverse hessian",
                 k * 10 + i, hv[k], H[k][i]);
  }
}

"""
ROF_CALL_AT = """  double x[NX], s;
  split(v, x, &s);
  unsigned long t0 = trace_at(x, s);
  int compared = 0;
  for (int i = 0; i < NIN; i++) {
    for (int k = 0; k < i; k++)
      if (!close_to(H[i][k], H[k][i], 1e-8, 1))"""
ROF_CALL_V21 = "  check_hessian_rof(v, H);\n"
FOF_CALL_V18 = "  check_fwd_over_fwd(v);\n"

# (old, new): the calls of f in MAIN_TEMPLATE after STATE_CALLS, with ws
ZEROED_CALLS = [
    ("ob ST_ARG);", "ob ST_ARG WS_ARG);"),
    ("dob ST_DUP);", "dob ST_DUP WS_DUPL);"),
    ("dob ST_CONST);", "dob ST_CONST WS_DUP);"),
    ("dob ST_CONST));", "dob ST_CONST WS_DUP));"),
    ("dob1 ST_CONST);", "dob1 ST_CONST WS_DUP2);"),
    ("  ST_LOCALS\n", "  ST_LOCALS\n  WS_LOCALS\n"),
]

# (old, new): the calls of f in MAIN_TEMPLATE, with the state (version 6)
# (version 8) structs whose copies carry pointers' shadows
# version 11: a double's bits passed to and returned from functions as
# integers (reverse mode follows them through a copy of each function that
# takes the double itself).
GLOBALS_V11 = """\
__attribute__((noinline)) unsigned long long adfz_to_bits(double d) {
  unsigned long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}
__attribute__((noinline)) double adfz_from_bits(unsigned long long u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}
__attribute__((noinline)) double adfz_scale_bits(unsigned long long u,
                                                 double c) {
  return adfz_from_bits(u) * c;
}
"""

# version 25: a buffer's bytes hold a pointer, then a double
GLOBALS_V25 = """\
__attribute__((noinline)) void adfz_put_ptr(unsigned char *b,
                                            const double *p) {
  *(const double **)b = p;
}
__attribute__((noinline)) void adfz_put_dbl(unsigned char *b, double d) {
  *(double *)b = d;
}
__attribute__((noinline)) double adfz_get_dbl(const unsigned char *b) {
  return *(const double *)b;
}
"""

# version 26: a double, then a pointer over its bytes 4..11
GLOBALS_V26 = """\
struct __attribute__((packed)) adfz_at4 {
  unsigned pad;
  const double *p;
};
__attribute__((noinline)) void adfz_put_ptr4(unsigned char *b,
                                             const double *p) {
  ((struct adfz_at4 *)b)->p = p;
}
"""

GLOBALS_V8 = """\
struct adfz_pr {
  double v;
  int k;
  const double *p;
};
struct adfz_rp {
  const double *p;
  double v;
};
#define ADFZ_ACC(i) (0.25 * (i) + 0.5)
"""

# (version 8) the reverse-mode gradient starts from ADFZ_ACC in dx
ACCUMULATE_CALLS = [
    ("""    for (int i = 0; i < NX; i++)
      dx[i] = 0;
    for (int j = 0; j < NOUT; j++) {
      ob[j] = 0;
      dob[j] = W[j];
    }
#if S_ACTIVE
    double ds""", """    for (int i = 0; i < NX; i++)
      dx[i] = ADFZ_ACC(i);
    for (int j = 0; j < NOUT; j++) {
      ob[j] = 0;
      dob[j] = W[j];
    }
#if S_ACTIVE
    double ds"""),
    ("""      grev[i] = dx[i];""", """      grev[i] = dx[i] - ADFZ_ACC(i);"""),
]

STATE_CALLS = [
    ("f(xb, s, NI, ob);", "f(xb, s, NI, ob ST_ARG);"),
    ("enzyme_dup, ob, dob);", "enzyme_dup, ob, dob ST_DUP);"),
    ("OUT_MARK, ob, dob);", "OUT_MARK, ob, dob ST_CONST);"),
    ("OUT_MARK, ob, dob));", "OUT_MARK, ob, dob ST_CONST));"),
    ("  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s;\n",
     "  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s;\n  ST_LOCALS\n"),
]

# (version 12) batched forward mode: two directions per call, each lane
# against the width-1 column (inserted before BATCHED_AT in MAIN_TEMPLATE)
GLOBALS_V12 = """\
extern int enzyme_width;
#if HAS_RET
typedef struct {
  double d[2];
} adfz_w2;
adfz_w2 __enzyme_fwddiff_w2(void *, ...);
#else
void __enzyme_fwddiff_w2(void *, ...);
#endif
"""
BATCHED_AT = "  /* central differences of L, of every out[j]"
BATCHED_V12 = r"""  /* batched forward mode: inputs i and i + 1 in one width-2 call */
  for (int i = 0; i + 1 < NIN; i += 2) {
    double xb[NX], dx0[NX], dx1[NX], ob[NOUT], dob0[NOUT], dob1[NOUT];
    double dret[2] = {0, 0};
    memcpy(xb, x, sizeof xb);
    for (int k = 0; k < NX; k++) {
      dx0[k] = k == i;
      dx1[k] = k == i + 1;
    }
    for (int j = 0; j < NOUT; j++)
      ob[j] = dob0[j] = dob1[j] = 0;
#if HAS_RET
    adfz_w2 r =
#endif
#if S_ACTIVE
    __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, enzyme_dup, xb, dx0, dx1,
                        enzyme_dup, s, (double)(i == NX),
                        (double)(i + 1 == NX), enzyme_const, NI, OUT_MARK, ob,
                        dob0, dob1 ST_CONST);
#else
    __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, enzyme_dup, xb, dx0, dx1,
                        enzyme_const, s, enzyme_const, NI, OUT_MARK, ob, dob0,
                        dob1 ST_CONST);
#endif
#if HAS_RET
    dret[0] = r.d[0];
    dret[1] = r.d[1];
#endif
    for (int l = 0; l < 2; l++) {
      const double *dob = l ? dob1 : dob0;
      for (int j = 0; j <= NOUT; j++) {
        double got = j < NOUT ? dob[j] : dret[l];
        if (!close_to(got, jfwd[i + l][j], TOL_FWD_REV, 1e-300))
          mismatch("batched forward lane vs width 1", (i + l) * (NOUT + 1) + j,
                   got, jfwd[i + l][j]);
      }
    }
  }

"""

MAIN_TEMPLATE = r"""
/* ---- checking harness (fixed; see tools/adfuzz/gen.py) ---- */
#if HAS_RET
double __enzyme_fwddiff(void *, ...);
#define FWD_RESULT(call) (call)
#else
void __enzyme_fwddiff(void *, ...);
#define FWD_RESULT(call) ((call), 0.0)
#endif
#if S_ACTIVE
double __enzyme_autodiff(void *, ...);
#else
void __enzyme_autodiff(void *, ...);
#endif

#define TOL_FWD_REV 1e-10
#define TOL_FD 1e-6
#define TOL_PRIMAL 1e-12

static int failures;

/* the primal: out and the objective L = f + W . out at (x, s) */
static double eval(const double *x, double s, double *outv, double *retv) {
  double xb[NX], ob[NOUT];
  memcpy(xb, x, sizeof xb);
  for (int j = 0; j < NOUT; j++)
    ob[j] = 0;
  adfz_trace = 0;
  double r = 0;
#if HAS_RET
  r = f(xb, s, NI, ob);
#else
  f(xb, s, NI, ob);
#endif
  double L = r;
  for (int j = 0; j < NOUT; j++) {
    L += W[j] * ob[j];
    if (outv)
      outv[j] = ob[j];
  }
  if (retv)
    *retv = r;
  return L;
}

static unsigned long trace_at(const double *x, double s) {
  eval(x, s, 0, 0);
  return adfz_trace;
}

static int close_to(double a, double b, double tol, double scale) {
  double d = fabs(a - b);
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return d <= tol * (scale + m);
}

static void mismatch(const char *what, int i, double got, double want) {
  printf("MISMATCH %s[%d]: %.17g vs %.17g (diff %.3g)\n", what, i, got, want,
         fabs(got - want));
  failures++;
}

#define NIN (NX + S_ACTIVE)

/* the inputs as one vector: x, then s if it is active */
static void split(const double *v, double *x, double *s) {
  memcpy(x, v, NX * sizeof(double));
  *s = S_ACTIVE ? v[NX] : S0;
}

/* is the branch trace the same at v +- d e_i for every i, at two scales? */
static int smooth_at(const double *v) {
  double x[NX], s;
  split(v, x, &s);
  unsigned long t0 = trace_at(x, s);
  for (int i = 0; i < NIN; i++)
    for (int k = 0; k < 4; k++) {
      double w[NIN];
      memcpy(w, v, sizeof w);
      double h = (k < 2 ? 1e-6 : 1e-4) * (fabs(v[i]) > 1 ? fabs(v[i]) : 1);
      w[i] += (k % 2 ? -h : h);
      split(w, x, &s);
      if (trace_at(x, s) != t0)
        return 0;
    }
  return 1;
}

/* does input i start equal to another one (a tie: not differenced)? */
static int tied(int i) {
  if (i >= NX)
    return 0;
  for (int k = 0; k < NX; k++)
    if (TIE_OF[k] >= 0 && (k == i || TIE_OF[k] == i))
      return 1;
  return 0;
}

#if HVP
/* The reverse-mode gradient of L at v (x, then s if active): differentiated
 * again by forward mode below. */
static void grad_L(const double *v, double *g) {
  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s;
  split(v, xb, &s);
  for (int i = 0; i < NX; i++)
    dx[i] = 0;
  for (int j = 0; j < NOUT; j++) {
    ob[j] = 0;
    dob[j] = W[j];
  }
#if S_ACTIVE
  g[NX] = __enzyme_autodiff((void *)f, enzyme_dup, xb, dx, enzyme_out, s,
                            enzyme_const, NI, enzyme_dup, ob, dob);
#else
  __enzyme_autodiff((void *)f, enzyme_dup, xb, dx, enzyme_const, s,
                    enzyme_const, NI, enzyme_dup, ob, dob);
#endif
  for (int i = 0; i < NX; i++)
    g[i] = dx[i];
}

/* Hessian columns by forward mode over reverse mode (one call per input),
 * against central differences of the gradient (where no branch flips and
 * the quotients at two steps agree) and against each other (symmetry). */
static void check_hessian(const double *v) {
  double H[NIN + 1][NIN + 1];
  for (int i = 0; i < NIN; i++) {
    double vb[NIN + 1], dv[NIN + 1], g[NIN + 1], dg[NIN + 1];
    memcpy(vb, v, sizeof vb);
    for (int k = 0; k < NIN; k++) {
      dv[k] = k == i;
      g[k] = dg[k] = 0;
    }
    __enzyme_fwddiff((void *)grad_L, enzyme_dup, vb, dv, enzyme_dup, g, dg);
    for (int k = 0; k < NIN; k++)
      H[i][k] = dg[k];
  }
  double x[NX], s;
  split(v, x, &s);
  unsigned long t0 = trace_at(x, s);
  int compared = 0;
  for (int i = 0; i < NIN; i++) {
    for (int k = 0; k < i; k++)
      if (!close_to(H[i][k], H[k][i], 1e-8, 1))
        mismatch("hessian symmetry", i * 10 + k, H[i][k], H[k][i]);
    if (tied(i))
      continue;
    double q[2][NIN + 1], h0 = 1e-5 * (fabs(v[i]) > 1 ? fabs(v[i]) : 1);
    int flips = 0;
    for (int r = 0; r < 2; r++) {
      double h = r ? h0 / 4 : h0, w[NIN + 1], gp[NIN + 1], gm[NIN + 1];
      volatile double tp = v[i] + h, tm = v[i] - h;
      memcpy(w, v, sizeof w);
      w[i] = tp;
      split(w, x, &s);
      flips |= trace_at(x, s) != t0;
      grad_L(w, gp);
      w[i] = tm;
      split(w, x, &s);
      flips |= trace_at(x, s) != t0;
      grad_L(w, gm);
      for (int k = 0; k < NIN; k++)
        q[r][k] = (gp[k] - gm[k]) / (tp - tm);
    }
    if (flips)
      continue;
    for (int k = 0; k < NIN; k++) {
      /* a quotient that changes between the two steps is not converged */
      if (!close_to(q[0][k], q[1][k], 1e-5, 1))
        continue;
      compared++;
      if (!close_to(H[i][k], q[0][k], 1e-4, 1))
        mismatch("forward-over-reverse vs finite-difference hessian",
                 i * 10 + k, H[i][k], q[0][k]);
    }
  }
  printf("hessian: %d entries compared with finite differences\n", compared);
}
#endif

int main(void) {
  double v[NIN + 1];
  /* the test point: X0 (and S0), moved until no branch flips nearby */
  int attempt, smooth = 0;
  for (attempt = 0; attempt < 16 && !smooth; attempt++) {
    for (int i = 0; i < NX; i++)
      v[i] = TIE_OF[i] >= 0 ? v[TIE_OF[i]]
                            : X0[i] + (attempt ? 0.37 * sin(3.1 * attempt + 1.7 * i) : 0);
    if (S_ACTIVE)
      v[NX] = S0 + (attempt ? 0.29 * cos(2.3 * attempt) : 0);
    smooth = smooth_at(v);
  }
  double x[NX], s;
  split(v, x, &s);
  printf("point attempt %d%s\n", attempt - 1, smooth ? "" : " (not smooth)");

  double out0[NOUT], ret0;
  double L0 = eval(x, s, out0, &ret0);
  printf("primal L = %.17g\n", L0);
  for (int j = 0; j < NOUT; j++)
    printf("primal out[%d] = %.17g\n", j, out0[j]);
  if (!isfinite(L0)) {
    printf("MISMATCH primal is not finite\n");
    return 2;
  }

  /* reverse mode: one call gives the gradient of L */
  double grev[NIN + 1];
  {
    double xb[NX], dx[NX], ob[NOUT], dob[NOUT];
    memcpy(xb, x, sizeof xb);
    for (int i = 0; i < NX; i++)
      dx[i] = 0;
    for (int j = 0; j < NOUT; j++) {
      ob[j] = 0;
      dob[j] = W[j];
    }
#if S_ACTIVE
    double ds = __enzyme_autodiff((void *)f, enzyme_dup, xb, dx, enzyme_out, s,
                                  enzyme_const, NI, OUT_MARK, ob, dob);
    grev[NX] = ds;
#else
    __enzyme_autodiff((void *)f, enzyme_dup, xb, dx, enzyme_const, s,
                      enzyme_const, NI, OUT_MARK, ob, dob);
#endif
    for (int i = 0; i < NX; i++)
      grev[i] = dx[i];
    for (int j = 0; j < NOUT; j++)
      if (!OUT_NONEED && !close_to(ob[j], out0[j], TOL_PRIMAL, 1e-300))
        mismatch("reverse-mode primal out", j, ob[j], out0[j]);
  }

  /* forward mode: one call per input gives a column of the Jacobian */
  double gfwd[NIN + 1], jfwd[NIN + 1][NOUT + 1];
  for (int i = 0; i < NIN; i++) {
    double xb[NX], dx[NX], ob[NOUT], dob[NOUT];
    memcpy(xb, x, sizeof xb);
    for (int k = 0; k < NX; k++)
      dx[k] = k == i;
    for (int j = 0; j < NOUT; j++)
      ob[j] = dob[j] = 0;
    double dret;
#if S_ACTIVE
    dret = FWD_RESULT(__enzyme_fwddiff((void *)f, enzyme_dup, xb, dx, enzyme_dup,
                                       s, (double)(i == NX), enzyme_const, NI,
                                       OUT_MARK, ob, dob));
#else
    dret = FWD_RESULT(__enzyme_fwddiff((void *)f, enzyme_dup, xb, dx,
                                       enzyme_const, s, enzyme_const, NI,
                                       OUT_MARK, ob, dob));
#endif
    double g = dret;
    for (int j = 0; j < NOUT; j++) {
      g += W[j] * dob[j];
      jfwd[i][j] = dob[j];
      if (!OUT_NONEED && !close_to(ob[j], out0[j], TOL_PRIMAL, 1e-300))
        mismatch("forward-mode primal out", j, ob[j], out0[j]);
    }
    jfwd[i][NOUT] = dret;
    gfwd[i] = g;
  }

  /* central differences of L, of every out[j] and of the return value, at
   * steps h and h/4: a quotient is trusted only where the two agree (a
   * function too curved or oscillating at that scale gives neither) */
  int fd_skipped = 0, fd_unstable = 0;
  for (int i = 0; i < NIN; i++) {
    double q[2][NOUT + 2];
    unsigned long tr[2][2];
    double h0 = 1e-6 * (fabs(v[i]) > 1 ? fabs(v[i]) : 1), noise[2][NOUT + 2];
    for (int k = 0; k < 2; k++) {
      double h = k ? h0 / 4 : h0;
      volatile double tp = v[i] + h, tm = v[i] - h;
      double w[NIN + 1], xp[NX], xm[NX], sp, sm, op[NOUT], om[NOUT], rp, rm;
      memcpy(w, v, sizeof w);
      w[i] = tp;
      split(w, xp, &sp);
      w[i] = tm;
      split(w, xm, &sm);
      double Lp = eval(xp, sp, op, &rp);
      tr[k][0] = adfz_trace;
      double Lm = eval(xm, sm, om, &rm);
      tr[k][1] = adfz_trace;
      q[k][0] = (Lp - Lm) / (tp - tm);
      /* round-off of the difference quotient: about eps |L| / h */
      noise[k][0] = 1e-15 * (fabs(Lp) + fabs(Lm)) / h;
      for (int j = 0; j <= NOUT; j++) {
        double up = j < NOUT ? op[j] : rp, dn = j < NOUT ? om[j] : rm;
        q[k][j + 1] = (up - dn) / (tp - tm);
        noise[k][j + 1] = 1e-15 * (fabs(up) + fabs(dn)) / h;
      }
    }
    printf("grad[%d] = %.17g\n", i, grev[i]);
    if (!close_to(gfwd[i], grev[i], TOL_FWD_REV, 1))
      mismatch("forward vs reverse grad", i, gfwd[i], grev[i]);
    unsigned long t0 = trace_at(x, s);
    if (tr[0][0] != t0 || tr[0][1] != t0 || tr[1][0] != t0 ||
        tr[1][1] != t0 || tied(i)) {
      fd_skipped++;
      continue;
    }
    for (int j = 0; j <= NOUT + 1; j++) {
      double ad = j == 0 ? grev[i] : jfwd[i][j - 1];
      double slack = 1 + (noise[0][j] + noise[1][j]) / TOL_FD;
      if (close_to(ad, q[0][j], TOL_FD, slack))
        continue;
      /* the two steps disagree: the quotient is not converged here */
      if (!close_to(q[0][j], q[1][j], TOL_FD, slack)) {
        fd_unstable++;
        continue;
      }
      if (j == 0)
        mismatch("reverse vs finite-difference grad", i, grev[i], q[0][0]);
      else
        mismatch(j <= NOUT ? "forward vs finite-difference d out" :
                 "forward vs finite-difference d return", i * 10 + j - 1,
                 ad, q[0][j]);
    }
  }
  if (fd_skipped)
    printf("finite differences skipped for %d input(s): a branch flips "
           "or a tie\n", fd_skipped);
#if HVP
  check_hessian(v);
#endif
  if (fd_unstable)
    printf("finite differences not converged for %d value(s): not compared\n",
           fd_unstable);
  if (failures) {
    printf("adfuzz: FAIL (%d mismatches)\n", failures);
    return 1;
  }
  printf("adfuzz: ok\n");
  return 0;
}
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True,
                    help="the seed; the same seed gives the same program")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    ap.add_argument("--version", type=int, default=GENERATOR_VERSION,
                    help="the generator version whose program to write "
                    "(%d..%d)" % (OLDEST_VERSION, GENERATOR_VERSION))
    args = ap.parse_args(argv)
    if args.seed < 0:
        ap.error("--seed must be non-negative")
    if not OLDEST_VERSION <= args.version <= GENERATOR_VERSION:
        ap.error("--version must be in %d..%d" % (OLDEST_VERSION,
                                                  GENERATOR_VERSION))
    text = Gen(args.seed, args.version).program()
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
