// A linked list built with malloc inside the function (pushing at the head),
// traversed, and freed. Node k holds x^(k+1), so ds/dx = sum (k+1) x^k.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

struct node {
  double value;
  struct node *next;
};

double f(double x, int n) {
  struct node *head = NULL;
  double v = 1;
  for (int k = 0; k < n; k++) {
    struct node *nd = (struct node *)malloc(sizeof *nd);
    v *= x;
    nd->value = v;
    nd->next = head;
    head = nd;
  }
  double s = 0;
  for (struct node *p = head; p; p = p->next)
    s += p->value;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return s;
}

static double f6(double x) { return f(x, 6); }

int main(void) {
  const double xs[2] = {0.7, 1.2};
  for (int i = 0; i < 2; i++) {
    double x = xs[i], d = 0;
    for (int k = 0; k < 6; k++)
      d += (k + 1) * pow(x, k);
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x, 6), d, fd_diff1(f6, x));
  }
  return check_done();
}
