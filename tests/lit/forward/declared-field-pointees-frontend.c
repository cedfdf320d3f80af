// The frontend records what each pointer field of a struct is declared to
// point to (adcore/DeclaredPointees.h): by the struct's IR name, each
// pointer field's byte offset and a letter (i integer of 16 bits or more,
// f float, d double, p pointer, u nothing known: `void *`, `char *`,
// `unsigned char *`, a struct, a function). Unions and structs without
// pointer fields are not recorded; nor are arrays of pointers. At -O0,
// where there is no TBAA, the type analysis types the integers read
// through `long long *p` by it. Pseudo entries (LinkedStores.h) list where
// a record's objects may hold pointers (`@struct.csc`: every pointer field
// and array element; `@struct.blk`: the union's pointer member), and where
// the record a pointer field points to does (`struct.pool@0`), each with
// the record's size (`s`); a field that points to bytes (`void *`, `char
// *`, `unsigned char *`) says that any of them may hold a pointer (`0b`).
// RUN: %adcc -O0 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=TABLE < %t.ll
// RUN: adcc-opt -passes=adcc-print-types %t.ll -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=TYPES

struct node;

struct csc {
  long long n;          // 0
  long long *p;         // 8: i
  int *w;               // 16: i
  double *x;            // 24: d
  float *y;             // 32: f
  void *any;            // 40: u
  char *name;           // 48: u
  unsigned char *bytes; // 56: u
  struct node *next;    // 64: u
  double **rows;        // 72: p
  short *s;             // 80: i
  double *arr[2];       // (not recorded)
};

union either {
  double *d;
  long long *i;
};

struct counts {
  int n, m;
};

struct blk {
  union {
    float v;
    struct blk *next;
  };
  int tag;
};

struct pool {
  struct blk *head;
  struct counts *c;
};

long long last(const struct csc *a, union either *e, struct counts *c,
               struct pool *pl) {
  return a->p[a->n] + c->n + pl->head->tag;
}

// TABLE: !adcc.declared.pointees = !{![[A:[0-9]+]], ![[B:[0-9]+]], ![[C:[0-9]+]], ![[D:[0-9]+]], ![[G:[0-9]+]], ![[H:[0-9]+]], ![[I:[0-9]+]], ![[E:[0-9]+]], ![[F:[0-9]+]]}
// TABLE-DAG: ![[A]] = !{!"@struct.blk", !"0p,16s"}
// TABLE-DAG: ![[B]] = !{!"@struct.csc", !"8p,16p,24p,32p,40p,48p,56p,64p,72p,80p,88p,96p,104s"}
// TABLE-DAG: ![[C]] = !{!"@struct.pool", !"0p,8p,16s"}
// TABLE-DAG: ![[D]] = !{!"struct.csc", !"8i,16i,24d,32f,40u,48u,56u,64u,72p,80i"}
// TABLE-DAG: ![[G]] = !{!"struct.csc@40", !"0b"}
// TABLE-DAG: ![[H]] = !{!"struct.csc@48", !"0b"}
// TABLE-DAG: ![[I]] = !{!"struct.csc@56", !"0b"}
// TABLE-DAG: ![[E]] = !{!"struct.pool", !"0u,8u"}
// TABLE-DAG: ![[F]] = !{!"struct.pool@0", !"0p,16s"}

// TYPES-LABEL: types of 'last'
// TYPES: pointer -> [*]:integer
