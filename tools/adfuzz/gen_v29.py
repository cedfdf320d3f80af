"""adfuzz generator version 29: memory reused, pointer tables, bits.

A mixin of gen.py's Gen (its methods use Gen's randomness, expressions and
scopes). Issue 33's class "shadows of memory reused": the same bytes hold
a pointer, then a double, or the reverse, and the reverse sweep must not
read the pointer's shadow as the double's adjoint (docs/reverse-mode.md,
"Shadows of memory reused"). Version 29 draws, per program, after version
24's draws:

  * a pool of blocks with a free list (feature `pool-reuse`), local to f
    (on the stack or the heap) and set up by f: its links a union's
    member (`union adfz_blk`), a `void *` at the start of a block of
    bytes (`pool-void-links`), or a `void *` at byte 4 of it, a packed
    struct's member (`pool-packed-links`: the link's low bits then lie
    under a double's exponent, so that a link's shadow read as an
    adjoint is a large number, not a denormal). f takes blocks from it
    (by functions that may not be inlined), stores records of different
    types over the links: two doubles (`pool-num`), a record of a
    pointer to an array in scope and a weight (`pool-rec`), a double's
    bits through an unsigned long long (`pool-bits`, the derivative must
    follow them), nodes linked by f and walked by a function that is
    not inlined (`pool-nodes`), each stored inline or by a callee
    through its parameter (`callee-stores`), reads them back, and gives
    the blocks back (their links stored over the records);
  * nodes in an array of f (stack or heap), linked by f (in order,
    backwards or shuffled) or by a callee, walked by a function that is
    not inlined (feature `linked-nodes`);
  * a table of pointers to rows (`double **`, feature `row-table`): rows
    in one block, in blocks of their own or in a local 2-D array, filled
    by f, updated in place and summed by functions that are not inlined;
    in half of them the table's memory then reused for doubles
    (`row-table-reuse`: pointers, then numbers in the same bytes).

What a pool of the caller (main) would need, a shadow pool main sets up,
is not drawn: f's signature is version 3's.
"""

import sys

NBLK = 4        # blocks in the pool
BLK_BYTES = 32  # bytes of a block (4 doubles)
VCAP = 2.0      # the doubles stored in blocks and nodes
WCAP = 1.5      # the weights


class V29:
    """Version 29's constructs (mixed into Gen)."""

    def _m29(self):
        return sys.modules[type(self).__module__]

    def v29_init(self):
        self.pool = None       # "union", "void" or "packed4"
        self.pool_ref = None   # "&pl" or "pl"
        self.pool_used = False
        self.nodes = False     # struct adfz_node and adfz_walk
        self.nodes_used = False
        self.rows = False      # adfz_rows_* helpers
        self.rows_used = False
        self.v29_in_f = False

    # -- per program ------------------------------------------------------
    def v29_setup(self):
        """Draws the constructs and writes their types and helpers."""
        self.pool = None
        if self.chance(0.5):
            self.pool = self.choice(["union", "void", "packed4"])
        if self.chance(0.4) or self.pool:
            self.nodes = True
        if self.chance(0.35):
            self.rows = True
        if not (self.pool or self.nodes or self.rows):
            return
        o = self.out
        o.append("/* version 29: memory reused for records of other types */")
        o.append("struct adfz_rec {")
        o.append("  const double *p;")
        o.append("  double w;")
        o.append("};")
        o.append("struct adfz_node {")
        o.append("  double v;")
        o.append("  struct adfz_node *next;")
        o.append("  double w;")
        o.append("};")
        self.gen_pool_helpers()
        self.gen_node_helpers()
        if self.rows:
            self.gen_row_helpers()
        o.append("")

    def gen_pool_helpers(self):
        o = self.out
        a = self.choice(["__attribute__((noinline)) static ", "static "])
        o.append("__attribute__((noinline)) static void adfz_put2(double *d, "
                 "double a, double b) {")
        o.append("  d[0] = a;")
        o.append("  d[1] = b;")
        o.append("}")
        o.append("__attribute__((noinline)) static double adfz_get2("
                 "const double *d, double c) {")
        o.append("  return c * d[0] + d[1];")
        o.append("}")
        o.append("__attribute__((noinline)) static void adfz_rec_set("
                 "struct adfz_rec *r, const double *p, double w) {")
        o.append("  r->p = p;")
        o.append("  r->w = w;")
        o.append("}")
        o.append("__attribute__((noinline)) static double adfz_rec_eval("
                 "const struct adfz_rec *r, int i) {")
        o.append("  return r->w * r->p[i];")
        o.append("}")
        if not self.pool:
            return
        self.features.add("pool-reuse")
        if self.pool == "union":
            o.append("union adfz_blk {")
            o.append("  union adfz_blk *next;")
            o.append("  struct {")
            o.append("    double v, u;")
            o.append("  } num;")
            o.append("  struct adfz_rec ref;")
            o.append("  unsigned long long bits[2];")
            o.append("  double pad[%d];" % (BLK_BYTES // 8))
            o.append("};")
            o.append("struct adfz_pool {")
            o.append("  union adfz_blk *head;")
            o.append("  union adfz_blk blk[%d];" % NBLK)
            o.append("};")
            btype, link = "union adfz_blk *", "b->next"
            init_link = "pl->blk[i].next = pl->head;"
            init_head = "pl->head = &pl->blk[i];"
        else:
            if self.pool == "void":
                self.features.add("pool-void-links")
                link = "*(void **)b"
                init_link = "*(void **)pl->mem[i] = pl->head;"
            else:
                self.features.add("pool-packed-links")
                o.append("struct __attribute__((packed)) adfz_lnk4 {")
                o.append("  unsigned tag;")
                o.append("  void *next;")
                o.append("};")
                link = "((struct adfz_lnk4 *)b)->next"
                init_link = ("((struct adfz_lnk4 *)pl->mem[i])->next = "
                             "pl->head;")
            o.append("struct adfz_pool {")
            o.append("  void *head;")
            o.append("  _Alignas(16) unsigned char mem[%d][%d];"
                     % (NBLK, BLK_BYTES))
            o.append("};")
            btype = "void *"
            init_head = "pl->head = pl->mem[i];"
        o.append("static void adfz_pool_init(struct adfz_pool *pl) {")
        o.append("  pl->head = 0;")
        o.append("  for (int i = %d; i >= 0; i--) {" % (NBLK - 1))
        o.append("    " + init_link)
        o.append("    " + init_head)
        o.append("  }")
        o.append("}")
        o.append("%s%sadfz_take(struct adfz_pool *pl) {" % (a, btype))
        o.append("  %sb = pl->head;" % btype)
        o.append("  pl->head = %s;" % link)
        o.append("  return b;")
        o.append("}")
        o.append("%svoid adfz_give(struct adfz_pool *pl, %sb) {" % (a, btype))
        o.append("  %s = pl->head;" % link)
        o.append("  pl->head = b;")
        o.append("}")

    def gen_node_helpers(self):
        o = self.out
        o.append("__attribute__((noinline)) static double adfz_walk("
                 "const struct adfz_node *h) {")
        o.append("  double s = 0;")
        o.append("  for (int i = 0; h; h = h->next, i++)")
        o.append("    s += (1.0 + 0.5 * i) * h->v * h->w;")
        o.append("  return s;")
        o.append("}")
        o.append("__attribute__((noinline)) static void adfz_link("
                 "struct adfz_node *nd, int m) {")
        o.append("  for (int i = 0; i < m; i++)")
        o.append("    nd[i].next = i + 1 < m ? &nd[i + 1] : 0;")
        o.append("}")
        o.append("__attribute__((noinline)) static void adfz_node_set("
                 "struct adfz_node *nd, double v, double w) {")
        o.append("  nd->v = v;")
        o.append("  nd->w = w;")
        o.append("}")

    def gen_row_helpers(self):
        o = self.out
        o.append("__attribute__((noinline)) static void adfz_rows_mix("
                 "double **r, int nr, int nc, double c) {")
        o.append("  for (int i = 0; i < nr; i++)")
        o.append("    for (int j = 0; j < nc; j++)")
        o.append("      r[i][j] = 3.0 * tanh((r[i][j] + c * "
                 "r[(i + 1) % nr][j]) / 3.0);")
        o.append("}")
        o.append("__attribute__((noinline)) static double adfz_rows_sum("
                 "double *const *r, int nr, int nc) {")
        o.append("  double s = 0;")
        o.append("  for (int i = 0; i < nr; i++)")
        o.append("    for (int j = 0; j < nc; j++)")
        o.append("      s += (1.0 + 0.25 * j) * r[i][j] * "
                 "r[i][(j + 1) % nc] / (1.0 + i);")
        o.append("  return s;")
        o.append("}")

    # -- in f -------------------------------------------------------------
    def v29_begin_f(self, sc, lines):
        """The pool made and set up by f."""
        self.v29_in_f = bool(self.pool or self.nodes or self.rows)
        if not self.pool:
            return
        if self.chance(0.4):
            self.emit(lines, 1, "struct adfz_pool *pl = (struct adfz_pool *)"
                      "malloc(sizeof *pl);")
            self.heap_live.append("pl")
            self.pool_ref = "pl"
        else:
            self.emit(lines, 1, "struct adfz_pool pl;")
            self.pool_ref = "&pl"
        self.emit(lines, 1, "adfz_pool_init(%s);" % self.pool_ref)

    def v29_stmt(self, sc, lines, ind, ctx):
        opts = []
        if self.pool:
            opts += ["num", "num", "rec", "bits", "pnodes"]
        if self.nodes and ctx.loops < 2:
            opts += ["nodes"]
        if self.rows and ctx.loops == 0:
            opts += ["rows"]
        if not opts:
            return False
        k = self.choice(opts)
        if k == "num":
            return self.pool_num(sc, lines, ind)
        if k == "rec":
            return self.pool_rec(sc, lines, ind)
        if k == "bits":
            return self.pool_bits(sc, lines, ind)
        if k == "pnodes":
            return self.pool_nodes(sc, lines, ind)
        if k == "nodes":
            return self.linked_nodes(sc, lines, ind)
        return self.row_table(sc, lines, ind)

    def new_value(self, sc, lines, ind, name, code, bound):
        """name = code squashed to 5, a scalar of the scope."""
        E = self._m29().E
        sq = self.squash(E(code, bound, False), 5.0)
        self.emit(lines, ind, "%s = %s;" % (name, sq.code))
        sc.scalars.append((name, min(bound, 5.0), True))

    def take(self, lines, ind, b):
        t = "union adfz_blk *" if self.pool == "union" else "void *"
        self.emit(lines, ind, "%s%s = adfz_take(%s);" % (t, b, self.pool_ref))

    def give(self, lines, ind, b):
        self.emit(lines, ind, "adfz_give(%s, %s);" % (self.pool_ref, b))

    def as_doubles(self, lines, ind, b):
        """An expression naming the block's doubles."""
        if self.pool == "union" and self.chance(0.5):
            return None  # through the union's members
        d = self.fresh("bd")
        self.emit(lines, ind, "double *%s = (double *)%s;" % (d, b))
        self.features.add("pointer-casts")
        return d

    def pool_num(self, sc, lines, ind):
        """Two doubles over a block's link, read back; the link stored
        over them when the block is given back."""
        lit = self._m29().lit
        e0 = self.squash(self.expr(sc, 2), VCAP)
        e1 = self.squash(self.expr(sc, 2), VCAP)
        name, b = self.fresh("v"), self.fresh("pb")
        c = self.uniform(-1.2, 1.2)
        self.features.add("pool-num")
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        i1 = ind + 1
        self.take(lines, i1, b)
        d = self.as_doubles(lines, i1, b)
        if d is None:
            f0, f1 = "%s->num.v" % b, "%s->num.u" % b
            ptr = "&%s->num.v" % b
        else:
            f0, f1, ptr = "%s[0]" % d, "%s[1]" % d, d
        if self.chance(0.4):
            self.features.add("callee-stores")
            self.emit(lines, i1, "adfz_put2(%s, %s, %s);"
                      % (ptr, e0.code, e1.code))
        else:
            self.emit(lines, i1, "%s = %s;" % (f0, e0.code))
            self.emit(lines, i1, "%s = %s;" % (f1, e1.code))
        if self.chance(0.4):
            code = "adfz_get2(%s, %s)" % (ptr, lit(c))
        else:
            code = "%s * %s + %s * %s" % (lit(c), f0, f1, f1)
        bound = abs(c) * VCAP + VCAP * VCAP
        tmp = self.fresh("t")
        self.emit(lines, i1, "double %s = %s;" % (tmp, code))
        self.give(lines, i1, b)
        self.emit(lines, i1, "%s = %s;" % (name, tmp))
        self.emit(lines, ind, "}")
        self.new_value(sc, lines, ind, name, name, bound)
        self.pool_used = True
        return True

    def pool_rec(self, sc, lines, ind):
        """A record of a pointer and a weight over a block's link (the
        pointer where an earlier record's double was)."""
        arrs = sc.all("arrays")
        if not arrs:
            return False
        a = self.choice(arrs)
        i = self.randint(0, a.length - 1)
        ew = self.squash(self.expr(sc, 2), WCAP)
        name, b = self.fresh("v"), self.fresh("pb")
        self.features.add("pool-rec")
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        i1 = ind + 1
        self.take(lines, i1, b)
        if self.pool == "union" and self.chance(0.5):
            r = "&%s->ref" % b
        else:
            r = self.fresh("br")
            self.emit(lines, i1, "struct adfz_rec *%s = (struct adfz_rec *)%s;"
                      % (r, b))
            self.features.add("pointer-casts")
        if self.chance(0.4):
            self.features.add("callee-stores")
            self.emit(lines, i1, "adfz_rec_set(%s, %s, %s);"
                      % (r, a.name, ew.code))
        else:
            self.emit(lines, i1, "(%s)->p = %s;" % (r, a.name))
            self.emit(lines, i1, "(%s)->w = %s;" % (r, ew.code))
        if self.chance(0.5):
            code = "adfz_rec_eval(%s, %d)" % (r, i)
        else:
            code = "(%s)->w * (%s)->p[%d]" % (r, r, i)
        tmp = self.fresh("t")
        self.emit(lines, i1, "double %s = %s;" % (tmp, code))
        self.give(lines, i1, b)
        self.emit(lines, i1, "%s = %s;" % (name, tmp))
        self.emit(lines, ind, "}")
        self.new_value(sc, lines, ind, name, name, WCAP * a.cap)
        self.pool_used = True
        return True

    def pool_bits(self, sc, lines, ind):
        """A double's bits through an unsigned long long stored in a
        block over its link, read back as a double (maybe scaled by a
        power of two through its exponent)."""
        lit = self._m29().lit
        src = self.squash(self.expr(sc, 2), VCAP)
        name, b = self.fresh("v"), self.fresh("pb")
        u, t = self.fresh("bu"), self.fresh("bt")
        self.features.add("pool-bits")
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        i1 = ind + 1
        self.take(lines, i1, b)
        if self.pool == "union" and self.chance(0.5):
            slot = "%s->bits[%d]" % (b, self.randint(0, 1))
        else:
            q = self.fresh("bq")
            self.emit(lines, i1, "unsigned long long *%s = "
                      "(unsigned long long *)%s;" % (q, b))
            slot = "%s[%d]" % (q, self.randint(0, 1))
            self.features.add("pointer-casts")
        self.emit(lines, i1, "double %s = 1.5 + (%s) * (%s);"
                  % (t, src.code, src.code))
        self.emit(lines, i1, "unsigned long long %s;" % u)
        self.emit(lines, i1, "memcpy(&%s, &%s, sizeof %s);" % (u, t, u))
        scale = 1.0
        if self.chance(0.4):
            k = self.choice([-1, 1])
            scale = 2.0 ** k
            self.emit(lines, i1, "%s %s= (unsigned long long)1 << 52;"
                      % (u, "+" if k > 0 else "-"))
        self.emit(lines, i1, "%s = %s;" % (slot, u))
        if self.chance(0.5):
            self.emit(lines, i1, "memcpy(&%s, &%s, sizeof %s);"
                      % (t, slot, t))
        else:
            self.emit(lines, i1, "memcpy(&%s, (const unsigned char *)&%s, 8);"
                      % (t, slot))
        self.give(lines, i1, b)
        c = self.uniform(0.5, 1.0)
        self.emit(lines, i1, "%s = %s * %s;" % (name, lit(c), t))
        self.emit(lines, ind, "}")
        self.new_value(sc, lines, ind, name, name,
                       c * scale * (1.5 + VCAP * VCAP))
        self.pool_used = True
        return True

    def set_node(self, sc, lines, ind, nd, body):
        ev = self.squash(self.expr(body, 2), VCAP)
        ew = self.squash(self.expr(body, 1), WCAP)
        if self.chance(0.3):
            self.features.add("callee-stores")
            self.emit(lines, ind, "adfz_node_set(%s, %s, %s);"
                      % (nd, ev.code, ew.code))
        else:
            self.emit(lines, ind, "(%s)->v = %s;" % (nd, ev.code))
            self.emit(lines, ind, "(%s)->w = %s;" % (nd, ew.code))

    def walk_bound(self, m):
        return sum((1.0 + 0.5 * i) * VCAP * WCAP for i in range(m))

    def pool_nodes(self, sc, lines, ind):
        """Nodes in blocks taken from the pool, linked by f (the links
        where earlier records' doubles were), walked, given back."""
        m = self.randint(2, 3)
        name = self.fresh("v")
        bs = [self.fresh("pb") for _ in range(m)]
        nds = [self.fresh("pn") for _ in range(m)]
        self.features.add("pool-nodes")
        self.features.add("pointer-casts")
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        i1 = ind + 1
        for b, nd in zip(bs, nds):
            self.take(lines, i1, b)
            self.emit(lines, i1, "struct adfz_node *%s = "
                      "(struct adfz_node *)%s;" % (nd, b))
        for nd in nds:
            self.set_node(sc, lines, i1, nd, sc)
        order = list(range(m))
        if self.chance(0.5):
            order.reverse()
        for k in range(m):
            nxt = nds[order[k + 1]] if k + 1 < m else "0"
            self.emit(lines, i1, "%s->next = %s;" % (nds[order[k]], nxt))
        tmp = self.fresh("t")
        self.emit(lines, i1, "double %s = adfz_walk(%s);"
                  % (tmp, nds[order[0]]))
        gives = list(bs)
        if self.chance(0.5):
            gives.reverse()
        for b in gives:
            self.give(lines, i1, b)
        self.emit(lines, i1, "%s = %s;" % (name, tmp))
        self.emit(lines, ind, "}")
        self.new_value(sc, lines, ind, name, name, self.walk_bound(m))
        self.pool_used = True
        return True

    def linked_nodes(self, sc, lines, ind):
        """Nodes of an array of f, linked by f or by a callee, walked by a
        function that is not inlined."""
        Scope = self._m29().Scope
        m = self.randint(2, 4)
        name, nd, j = self.fresh("v"), self.fresh("nd"), self.fresh("j")
        self.features.add("linked-nodes")
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        i1 = ind + 1
        heap = self.chance(0.4)
        if heap:
            self.emit(lines, i1, "struct adfz_node *%s = (struct adfz_node *)"
                      "malloc(%d * sizeof *%s);" % (nd, m, nd))
        else:
            self.emit(lines, i1, "struct adfz_node %s[%d];" % (nd, m))
        self.emit(lines, i1, "for (int %s = 0; %s < %d; %s++) {"
                  % (j, j, m, j))
        body = Scope(sc)
        body.idx.append((j, 0, m))
        self.set_node(sc, lines, i1 + 1, "&%s[%s]" % (nd, j), body)
        self.emit(lines, i1, "}")
        how = self.randint(0, 2)
        if how == 0:
            self.emit(lines, i1, "adfz_link(%s, %d);" % (nd, m))
            head = "%s" % nd
            self.features.add("callee-stores")
        elif how == 1:
            self.emit(lines, i1, "for (int %s = %d; %s > 0; %s--)"
                      % (j, m - 1, j, j))
            self.emit(lines, i1 + 1, "%s[%s].next = &%s[%s - 1];"
                      % (nd, j, nd, j))
            self.emit(lines, i1, "%s[0].next = 0;" % nd)
            head = "&%s[%d]" % (nd, m - 1)
        else:
            perm = list(range(m))
            for k in range(m - 1, 0, -1):
                r = self.randint(0, k)
                perm[k], perm[r] = perm[r], perm[k]
            for k in range(m):
                nxt = "&%s[%d]" % (nd, perm[k + 1]) if k + 1 < m else "0"
                self.emit(lines, i1, "%s[%d].next = %s;" % (nd, perm[k], nxt))
            head = "&%s[%d]" % (nd, perm[0])
        self.emit(lines, i1, "%s = adfz_walk(%s);" % (name, head))
        if heap:
            self.emit(lines, i1, "free(%s);" % nd)
        self.emit(lines, ind, "}")
        self.new_value(sc, lines, ind, name, name, self.walk_bound(m))
        self.nodes_used = True
        return True

    def row_table(self, sc, lines, ind):
        """A table of pointers to rows (double **), filled by f, mixed in
        place and summed by callees; in half of them the table's bytes
        then reused for doubles."""
        m = self._m29()
        lit, Scope = m.lit, m.Scope
        nr, nc = self.randint(2, 3), self.randint(2, 4)
        name, rw, fl = self.fresh("v"), self.fresh("rw"), self.fresh("rf")
        i, j = self.fresh("ri"), self.fresh("rj")
        self.features.add("row-table")
        self.emit(lines, ind, "double %s;" % name)
        self.emit(lines, ind, "{")
        i1 = ind + 1
        self.emit(lines, i1, "double **%s = (double **)malloc(%d * "
                  "sizeof(double *));" % (rw, nr))
        where = self.randint(0, 2)
        backwards = self.chance(0.5)
        row = "%s - 1 - %s" % (nr, i) if backwards else i
        if where == 0:
            self.emit(lines, i1, "double *%s = (double *)malloc(%d * "
                      "sizeof(double));" % (fl, nr * nc))
            self.emit(lines, i1, "for (int %s = 0; %s < %d; %s++)"
                      % (i, i, nr, i))
            self.emit(lines, i1 + 1, "%s[%s] = %s + (%s) * %d;"
                      % (rw, i, fl, row, nc))
        elif where == 1:
            self.emit(lines, i1, "for (int %s = 0; %s < %d; %s++)"
                      % (i, i, nr, i))
            self.emit(lines, i1 + 1, "%s[%s] = (double *)malloc(%d * "
                      "sizeof(double));" % (rw, i, nc))
        else:
            self.emit(lines, i1, "double %s[%d][%d];" % (fl, nr, nc))
            self.emit(lines, i1, "for (int %s = 0; %s < %d; %s++)"
                      % (i, i, nr, i))
            self.emit(lines, i1 + 1, "%s[%s] = %s[%s];" % (rw, i, fl, row))
        body = Scope(sc)
        body.idx.append((i, 0, nr))
        body.idx.append((j, 0, nc))
        e = self.squash(self.expr(body, 2), 3.0)
        self.emit(lines, i1, "for (int %s = 0; %s < %d; %s++)"
                  % (i, i, nr, i))
        self.emit(lines, i1 + 1, "for (int %s = 0; %s < %d; %s++)"
                  % (j, j, nc, j))
        self.emit(lines, i1 + 2, "%s[%s][%s] = %s;" % (rw, i, j, e.code))
        if self.chance(0.6):
            c = self.uniform(-0.8, 0.8)
            self.emit(lines, i1, "adfz_rows_mix(%s, %d, %d, %s);"
                      % (rw, nr, nc, lit(c)))
        bound = sum((1.0 + 0.25 * jj) * 9.0 / (1.0 + ii)
                    for ii in range(nr) for jj in range(nc))
        self.emit(lines, i1, "%s = adfz_rows_sum(%s, %d, %d);"
                  % (name, rw, nr, nc))
        if self.chance(0.5):
            # the table's bytes reused: numbers over the pointers (each
            # row read, and freed if it is a block of its own, before its
            # pointer is overwritten)
            self.features.add("row-table-reuse")
            sd, q = self.fresh("rd"), self.fresh("rq")
            self.emit(lines, i1, "{")
            self.emit(lines, i1 + 1, "double *%s = (double *)%s;" % (sd, rw))
            self.emit(lines, i1 + 1, "for (int %s = 0; %s < %d; %s++) {"
                      % (i, i, nr, i))
            self.emit(lines, i1 + 2, "double *%s = %s[%s];" % (q, rw, i))
            self.emit(lines, i1 + 2, "%s[%s] = %s[%d] * %s[0];"
                      % (sd, i, q, nc - 1, q))
            if where == 1:
                self.emit(lines, i1 + 2, "free(%s);" % q)
            self.emit(lines, i1 + 1, "}")
            self.emit(lines, i1 + 1, "%s = 3.0 * tanh(%s / 3.0) + 0.5 * %s[%d]"
                      ";" % (name, name, sd, self.randint(0, nr - 1)))
            self.emit(lines, i1, "}")
            bound = 3.0 + 4.5
        elif where == 1:
            self.emit(lines, i1, "for (int %s = 0; %s < %d; %s++)"
                      % (i, i, nr, i))
            self.emit(lines, i1 + 1, "free(%s[%s]);" % (rw, i))
        if where == 0:
            self.emit(lines, i1, "free(%s);" % fl)
        self.emit(lines, i1, "free(%s);" % rw)
        self.emit(lines, ind, "}")
        self.new_value(sc, lines, ind, name, name, bound)
        self.rows_used = True
        return True

    def v29_end_f(self, sc, lines):
        """Constructs not used yet are used now."""
        if not self.v29_in_f:
            return
        if self.pool and not self.pool_used:
            self.pool_num(sc, lines, 1)
        if self.nodes and not self.nodes_used:
            self.linked_nodes(sc, lines, 1)
        if self.rows and not self.rows_used:
            self.row_table(sc, lines, 1)
        self.v29_in_f = False
