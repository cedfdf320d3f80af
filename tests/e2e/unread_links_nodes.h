/* The blocks of the pools of the tests of a caller's links that the request
 * never reads (issue 33: rev_unread_links*.c): a node whose first bytes
 * hold its link or a float, the struct of numbers its pointer is cast to,
 * and a callee storing a number of its declared type through its
 * parameter. */
#ifndef ADCC_E2E_UNREAD_LINKS_NODES_H
#define ADCC_E2E_UNREAD_LINKS_NODES_H

struct node {
  union {
    float value;
    struct node *next;
  };
};
struct obj {
  float v;
  float w;
};

__attribute__((noinline)) static void init_obj(struct obj *o, float v) {
  o->v = v;
}

#endif
