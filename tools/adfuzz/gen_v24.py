"""adfuzz generator version 24: state kept the way numerical codes keep it.

A mixin of gen.py's Gen (its methods use Gen's randomness, expressions and
scopes). Version 24 draws, per program, after version 19's draws:

  * a global accumulator with a derivative (feature `global-accumulator`):
    `static double adfz_gacc[3]`, cleared by f, added to by f and by a
    noinline deposit function (`adfz_deposit(b, e)`, an energy summed into
    bins, or `adfz_add(&adfz_gacc[b], e)` through its address; in half of
    those also a global struct `adfz_tally` of a count, a sum and a sum of
    squares), read back (squashed) by later statements and the outputs. adcc
    gives it a shadow global; higher derivatives through it are a
    documented "not supported yet" error, so such programs do not draw
    the nested checks (versions 5, 18, 21);
  * a struct of arrays passed by pointer (feature `soa-state`): `struct
    adfz_soaN { int m; double p[6]; double q[6]; }` on the stack or the
    heap, filled from x, updated in place by a step function (a method:
    `adfz_soa_stepN(&so, c)`, sometimes in a loop of n steps) whose loop
    bound is the struct's int field, read by a getter
    (`adfz_soa_sumN(&so)`) and by the statements that read arrays;
  * a table of operations (feature `op-table`): `struct adfz_op { double
    (*fn)(double, double); double w; }` entries naming the scalar helpers,
    a local table, a constant global one or one filled by a noinline
    registration function, applied by an interpreter loop whose opcode
    comes from the loop index and n, from a branch on the data or from a
    constant code table.
"""

import sys

NGACC = 3       # bins of the global accumulator
SOA_CAP = 6     # capacity of the struct of arrays' fields
SOA_P, SOA_Q = 5.0, 2.0  # bounds of its fields' elements


class V24:
    """Version 24's constructs (mixed into Gen)."""

    def _m(self):
        return sys.modules[type(self).__module__]

    def v24_init(self):
        self.gacc = False        # the global accumulator adfz_gacc
        self.gacc_deposit = None  # its noinline deposit function
        self.gacc_used = False
        self.tally = False       # a global struct of numbers and a count
        self.soa = None          # (struct, step, sum, m) of the struct
        self.soa_var = None      # its instance in f ("so" or "so->")
        self.soa_stepped = False
        self.optab = None        # (mode, name) of the table of operations
        self.optab_used = False
        self.v24_in_f = False    # version 24 statements only in f

    # -- per program ------------------------------------------------------
    def v24_setup(self):
        """Draws the constructs and writes their types and helpers."""
        if self.chance(0.4):
            self.gacc = True
            self.features.add("global-accumulator")
            self.out.append("/* a global accumulator with a derivative */")
            self.out.append("static double adfz_gacc[%d];" % NGACC)
            k = self.randint(0, 2)
            if k == 1:
                self.gacc_deposit = "adfz_deposit"
                self.out.append("__attribute__((noinline)) static void "
                                "adfz_deposit(int b, double e) {")
                self.out.append("  adfz_gacc[b] += e;")
                self.out.append("}")
            elif k == 2:
                # through the address of the global's element
                self.gacc_deposit = "adfz_add"
                self.out.append("__attribute__((noinline)) static void "
                                "adfz_add(double *g, double e) {")
                self.out.append("  *g += e;")
                self.out.append("}")
            if self.chance(0.5):
                # a global struct of numbers: a count (no derivative), a
                # sum and a sum of squares
                self.tally = True
                self.out.append("static struct {")
                self.out.append("  int n;")
                self.out.append("  double sum, sq;")
                self.out.append("} adfz_tally;")
            self.out.append("")
        if self.chance(0.4):
            self.gen_soa()
        if len(self.scalar_helpers) >= 2 and self.chance(0.5):
            self.gen_optab()

    def gen_soa(self):
        m = self._m()
        Scope = m.Scope
        st = self.fresh("adfz_soa")
        step, total = self.fresh("adfz_soa_step"), self.fresh("adfz_soa_sum")
        n = self.randint(2, SOA_CAP)
        self.out.append("struct %s {" % st)
        self.out.append("  int m;")
        self.out.append("  double p[%d];" % SOA_CAP)
        self.out.append("  double q[%d];" % SOA_CAP)
        self.out.append("};")
        sc = Scope()
        sc.scalars = [("c", m.HELPER_ARG, False), ("t", SOA_P, False),
                      ("u", SOA_Q, False), ("r", SOA_P, False)]
        eq = self.squash(self.expr(sc, 3), SOA_Q)
        k = self.uniform(0.2, 0.8)
        self.out.append("%svoid %s(struct %s *o, double c) {"
                        % (self.attr(), step, st))
        self.out.append("  for (int i = 0; i < o->m; i++) {")
        self.out.append("    double t = o->p[i], u = o->q[i], "
                        "r = o->p[(i + 1) % o->m];")
        self.out.append("    o->q[i] = %s;" % eq.code)
        self.out.append("    o->p[i] = %s * tanh((t + %s * o->q[i]) / %s);"
                        % (m.lit(SOA_P), m.lit(k), m.lit(SOA_P)))
        self.out.append("  }")
        self.out.append("}")
        self.out.append("")
        self.out.append("%sdouble %s(const struct %s *o) {"
                        % (self.attr(), total, st))
        self.out.append("  double acc = 0;")
        self.out.append("  for (int i = 0; i < o->m; i++)")
        self.out.append("    acc += o->p[i] * o->q[i] / (1.0 + i);")
        self.out.append("  return acc;")
        self.out.append("}")
        self.out.append("")
        self.soa = (st, step, total, n)
        self.features.add("soa-state")

    def gen_optab(self):
        mode = self.choice(["local", "global", "register"])
        k = self.randint(2, 4)
        entries = [(self.choice(self.scalar_helpers), self.uniform(-1.2, 1.2))
                   for _ in range(k)]
        lit = self._m().lit
        self.out.append("struct adfz_op {")
        self.out.append("  double (*fn)(double, double);")
        self.out.append("  double w;")
        self.out.append("};")
        init = ", ".join("{%s, %s}" % (h[0], lit(w)) for (h, w) in entries)
        name = "adfz_ops"
        if mode == "global":
            self.out.append("static const struct adfz_op adfz_ops[%d] = {%s};"
                            % (k, init))
        elif mode == "register":
            self.out.append("__attribute__((noinline)) static void "
                            "adfz_ops_register(struct adfz_op *t) {")
            for i, (h, w) in enumerate(entries):
                self.out.append("  t[%d].fn = %s;" % (i, h[0]))
                self.out.append("  t[%d].w = %s;" % (i, lit(w)))
            self.out.append("}")
        self.out.append("")
        for (h, _) in entries:
            self.used.add(h[0])
        bound = max(abs(w) * h[1] for (h, w) in entries)
        self.optab = (mode, name, k, init, bound)
        self.features.add("op-table")

    # -- in f -------------------------------------------------------------
    def v24_begin_f(self, sc, lines):
        """The accumulator cleared, the struct of arrays made and filled."""
        self.v24_in_f = True
        Arr = self._m().Arr
        if self.gacc:
            how = self.randint(0, 2)
            if how == 0:
                self.emit(lines, 1, "memset(adfz_gacc, 0, sizeof adfz_gacc);")
            elif how == 1:
                self.emit(lines, 1, "for (int b = 0; b < %d; b++)" % NGACC)
                self.emit(lines, 2, "adfz_gacc[b] = 0;")
            else:
                self.emit(lines, 1, " = ".join("adfz_gacc[%d]" % b
                                              for b in range(NGACC)) + " = 0;")
            if self.tally:
                if self.chance(0.5):
                    self.emit(lines, 1, "memset(&adfz_tally, 0, "
                              "sizeof adfz_tally);")
                else:
                    self.emit(lines, 1, "adfz_tally.n = 0;")
                    self.emit(lines, 1, "adfz_tally.sum = adfz_tally.sq = 0;")
        if self.soa:
            st, step, total, n = self.soa
            if self.chance(0.4):
                self.emit(lines, 1, "struct %s *so = (struct %s *)malloc("
                          "sizeof *so);" % (st, st))
                self.heap_live.append("so")
                var, ref = "so->", "so"
            else:
                self.emit(lines, 1, "struct %s so;" % st)
                var, ref = "so.", "&so"
            self.soa_var = (var, ref)
            # the count: constant, or from n (at least the n filled)
            count = str(n)
            if n < SOA_CAP and self.chance(0.5):
                count = "n %% %d + %d" % (SOA_CAP - n + 1, n)
            self.emit(lines, 1, "%sm = %s;" % (var, count))
            j = self.fresh("j")
            self.emit(lines, 1, "for (int %s = 0; %s < %d; %s++) {"
                      % (j, j, n, j))
            body = self._m().Scope(sc)
            body.idx.append((j, 0, n))
            ep = self.squash(self.expr(body, 2), 1.5)
            eq = self.squash(self.expr(body, 1), SOA_Q)
            c = self.uniform(-1.5, 1.5)
            self.emit(lines, 2, "%sp[%s] = %s * x[%s %% %d] + %s;"
                      % (var, j, self._m().lit(c), j, self.nx, ep.code))
            self.emit(lines, 2, "%sq[%s] = %s;" % (var, j, eq.code))
            self.emit(lines, 1, "}")
            # a runtime m (n % .. + n) may exceed n: fill the rest too
            if n < SOA_CAP:
                self.emit(lines, 1, "for (int %s = %d; %s < %d; %s++)"
                          % (j, n, j, SOA_CAP, j))
                self.emit(lines, 2, "%sp[%s] = %sq[%s] = 0.5;"
                          % (var, j, var, j))
            sc.arrays.append(Arr(var + "p", n, SOA_P, True))
            sc.arrays.append(Arr(var + "q", n, SOA_Q, True))

    def v24_stmt(self, sc, lines, ind, ctx):
        opts = []
        if self.gacc:
            opts += ["deposit", "deposit", "gread"]
        if self.soa:
            opts += ["step", "sum"]
        if self.optab and ctx.loops < 2:
            opts += ["optab"]
        if not opts:
            return False
        k = self.choice(opts)
        if k == "deposit":
            return self.gacc_deposit_stmt(sc, lines, ind)
        if k == "gread":
            return self.gacc_read(sc, lines, ind)
        if k == "step":
            return self.soa_step(sc, lines, ind, ctx)
        if k == "sum":
            return self.soa_sum(sc, lines, ind)
        return self.optab_loop(sc, lines, ind)

    def gacc_deposit_stmt(self, sc, lines, ind):
        e = self.squash(self.expr(sc, 2), 1.0)
        b = self.int_expr(sc, NGACC)
        if self.tally and self.chance(0.4):
            t = self.fresh("v")
            self.emit(lines, ind, "{")
            self.emit(lines, ind + 1, "double %s = %s;" % (t, e.code))
            self.emit(lines, ind + 1, "adfz_tally.n++;")
            self.emit(lines, ind + 1, "adfz_tally.sum += %s;" % t)
            self.emit(lines, ind + 1, "adfz_tally.sq += %s * %s;" % (t, t))
            self.emit(lines, ind, "}")
        elif self.gacc_deposit == "adfz_add" and self.chance(0.6):
            self.emit(lines, ind, "adfz_add(&adfz_gacc[%s], %s);"
                      % (b, e.code))
            self.used.add(self.gacc_deposit)
        elif self.gacc_deposit == "adfz_deposit" and self.chance(0.6):
            self.emit(lines, ind, "%s(%s, %s);" % (self.gacc_deposit, b,
                                                 e.code))
            self.used.add(self.gacc_deposit)
        else:
            self.emit(lines, ind, "adfz_gacc[%s] += %s;" % (b, e.code))
        self.gacc_used = True
        return True

    def gacc_read_expr(self, b):
        E, lit = self._m().E, self._m().lit
        c = self.choice([2.0, 5.0])
        if self.tally and self.chance(0.3):
            # the mean and the spread of what was tallied
            return E("%s * tanh((adfz_tally.sum + 0.5 * adfz_tally.sq) / "
                     "(1 + adfz_tally.n))" % lit(c), c)
        return E("%s * tanh(adfz_gacc[%s] / %s)" % (lit(c), b, lit(c)), c)

    def gacc_read(self, sc, lines, ind):
        name = self.fresh("v")
        e = self.gacc_read_expr(self.int_expr(sc, NGACC))
        self.emit(lines, ind, "double %s = %s;" % (name, e.code))
        sc.scalars.append((name, e.bound, True))
        return True

    def soa_step(self, sc, lines, ind, ctx):
        st, step, total, n = self.soa
        var, ref = self.soa_var
        e = self.squash(self.expr(sc, 2), 1.0)
        if ctx.loops == 0 and self.chance(0.5):
            t = self.fresh("t")
            trip = self.choice(["n", "3", "n % 2 + 1"])
            self.emit(lines, ind, "for (int %s = 0; %s < %s; %s++)"
                      % (t, t, trip, t))
            self.emit(lines, ind + 1, "%s(%s, %s);" % (step, ref, e.code))
        else:
            self.emit(lines, ind, "%s(%s, %s);" % (step, ref, e.code))
        self.soa_stepped = True
        return True

    def soa_sum(self, sc, lines, ind):
        st, step, total, n = self.soa
        var, ref = self.soa_var
        name = self.fresh("v")
        bound = sum(SOA_P * SOA_Q / (1 + i) for i in range(SOA_CAP))
        e = self.squash(self._m().E("%s(%s)" % (total, ref), bound, False),
                        5.0)
        self.emit(lines, ind, "double %s = %s;" % (name, e.code))
        sc.scalars.append((name, 5.0, True))
        return True

    def optab_loop(self, sc, lines, ind):
        m = self._m()
        E, lit = m.E, m.lit
        mode, name, k, init, bound = self.optab
        arrs = [a for a in sc.all("arrays") if a.length >= 2]
        if not arrs:
            return False
        a = self.choice(arrs)
        acc, tab, i = self.fresh("v"), self.fresh("ops"), self.fresh("k")
        cap = 2.0
        start = self.squash(self.expr(sc, 2), cap)
        self.emit(lines, ind, "double %s = %s;" % (acc, start.code))
        self.emit(lines, ind, "{")
        if mode == "global":
            tab = name
        elif mode == "local":
            self.emit(lines, ind + 1, "struct adfz_op %s[%d] = {%s};"
                      % (tab, k, init))
        else:
            self.emit(lines, ind + 1, "struct adfz_op %s[%d];" % (tab, k))
            self.emit(lines, ind + 1, "adfz_ops_register(%s);" % tab)
        self.emit(lines, ind + 1, "for (int %s = 0; %s < %d; %s++) {"
                  % (i, i, a.length, i))
        how = self.randint(0, 2)
        if how == 0:
            op = "(%s + n) %% %d" % (i, k)
        elif how == 1:
            thr = self.uniform(-0.5, 0.5) * a.cap
            op = "adfz_br(%s[%s] > %s) ? %d : %d" % (
                a.name, i, lit(thr), self.randint(0, k - 1),
                self.randint(0, k - 1))
            self.features.add("branch")
        else:
            codes = [self.randint(0, k - 1) for _ in range(a.length)]
            self.emit(lines, ind + 2, "static const int code[%d] = {%s};"
                      % (a.length, ", ".join(str(c) for c in codes)))
            op = "code[%s]" % i
        self.emit(lines, ind + 2, "int c = %s;" % op)
        arg = self.squash(E("%s[%s]" % (a.name, i), a.cap), m.HELPER_ARG)
        t = E("(%s + %s[c].w * %s[c].fn(%s, %s))"
              % (acc, tab, tab, acc, arg.code), cap + bound, False)
        self.emit(lines, ind + 2, "%s = %s * tanh(%s / %s);"
                  % (acc, lit(cap), t.code, lit(cap)))
        self.emit(lines, ind + 1, "}")
        self.emit(lines, ind, "}")
        sc.scalars.append((acc, cap, True))
        self.optab_used = True
        return True

    def v24_end_f(self, sc, lines, terms):
        """Constructs not used yet are used now; what they hold reaches
        the outputs."""
        if self.gacc and not self.gacc_used:
            self.gacc_deposit_stmt(sc, lines, 1)
        if self.soa and not self.soa_stepped:
            self.soa_step(sc, lines, 1, self.top_ctx())
        if self.optab and not self.optab_used:
            self.optab_loop(sc, lines, 1)
        if self.gacc:
            for b in range(NGACC):
                terms.append(self.gacc_read_expr(str(b)))
        if self.tally:
            terms.append(self._m().E(
                "tanh(adfz_tally.sum / (1 + adfz_tally.n) + adfz_tally.sq)",
                1.0))
        self.v24_in_f = False

    def top_ctx(self):
        return self._m().Ctx(0, False, 0)
