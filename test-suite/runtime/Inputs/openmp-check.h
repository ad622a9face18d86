/*===- openmp-check.h - Gradients of OpenMP code under several teams ------===*\
|*                                                                            *|
|* check_teams(name, loss, analytic, x, n, c) differentiates                  *|
|*   double loss(const double *x, double *work, double c)                     *|
|* with __enzyme_autodiff (x and work duplicated, c active) with teams of 1,   *|
|* 2 and 4 threads, and checks each gradient against the analytic one, the    *|
|* 1-thread one (to rounding) and central finite differences; then the        *|
|* forward derivative along a direction against the gradient's dot product.   *|
|* A build without -fopenmp (the pragmas ignored) runs the same checks once.  *|
\*===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_OPENMP_CHECK_H
#define ENZYME_RUNTIME_OPENMP_CHECK_H

#include "check.h"
#ifdef _OPENMP
#include <omp.h>
#endif

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define WORK_SIZE 4096

/* Relative tolerance against the analytic gradient and between teams. */
static const double teams_rtol = 1e-11;

typedef double (*loss_fn)(const double *x, double *work, double c);
typedef void (*grad_fn)(const double *x, double c, double *gx, double *gc);

struct fd_ctx {
  loss_fn f;
  const double *x;
  double c;
};

static double fd_loss_x(const double *x, void *p) {
  struct fd_ctx *ctx = (struct fd_ctx *)p;
  static double work[WORK_SIZE];
  return ctx->f(x, work, ctx->c);
}

static double fd_loss_c(const double *c, void *p) {
  struct fd_ctx *ctx = (struct fd_ctx *)p;
  static double work[WORK_SIZE];
  return ctx->f(ctx->x, work, c[0]);
}

static inline void set_team(int threads) {
#ifdef _OPENMP
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

static void check_teams(const char *name, loss_fn f, grad_fn analytic,
                        const double *x, int n, double c) {
  static double work[WORK_SIZE], dwork[WORK_SIZE];
  double *gx = (double *)calloc((size_t)n, sizeof(double));
  double *want = (double *)calloc((size_t)n, sizeof(double));
  double *first = (double *)calloc((size_t)n, sizeof(double));
  double gc_want = 0, gc_first = 0;
  analytic(x, c, want, &gc_want);
#ifdef _OPENMP
  const int teams[] = {1, 2, 4};
  const int nteams = 3;
#else
  const int teams[] = {1};
  const int nteams = 1;
#endif
  char label[128];
  for (int t = 0; t < nteams; t++) {
    set_team(teams[t]);
    /* Twice: the second call must not see the first one's adjoints. */
    for (int rep = 0; rep < 2; rep++) {
      memset(gx, 0, (size_t)n * sizeof(double));
      memset(dwork, 0, sizeof(dwork));
      double gc = __enzyme_autodiff((void *)f, enzyme_dup, x, gx, enzyme_dup,
                                    work, dwork, c);
      for (int i = 0; i < n; i++) {
        snprintf(label, sizeof(label), "%s threads=%d d/dx[%d]", name,
                 teams[t], i);
        check_close(label, gx[i], want[i], teams_rtol, 1e-12);
        if (t == 0)
          first[i] = gx[i];
        else
          check_close(label, gx[i], first[i], teams_rtol, 1e-13);
      }
      snprintf(label, sizeof(label), "%s threads=%d d/dc", name, teams[t]);
      check_close(label, gc, gc_want, teams_rtol, 1e-12);
      if (t == 0)
        gc_first = gc;
      else
        check_close(label, gc, gc_first, teams_rtol, 1e-13);
    }
    /* Forward mode along v: the directional derivative is <grad, v>. */
    double *v = (double *)calloc((size_t)n, sizeof(double));
    double dot = 0.5 * gc_want;
    for (int i = 0; i < n; i++) {
      v[i] = 0.25 + 0.5 * (i % 3);
      dot += v[i] * want[i];
    }
    double tangent = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_dup,
                                      work, dwork, c, 0.5);
    snprintf(label, sizeof(label), "%s threads=%d forward", name, teams[t]);
    check_close(label, tangent, dot, teams_rtol, 1e-12);
    free(v);
  }
  /* Finite differences of the primal, with the largest team. */
  struct fd_ctx ctx = {f, x, c};
  for (int i = 0; i < n; i++) {
    snprintf(label, sizeof(label), "%s finite difference d/dx[%d]", name, i);
    check_fd(label, want[i], fd_partial(fd_loss_x, x, n, i, &ctx));
  }
  snprintf(label, sizeof(label), "%s finite difference d/dc", name);
  check_fd(label, gc_want, fd_partial(fd_loss_c, &c, 1, 0, &ctx));
  free(gx);
  free(want);
  free(first);
}

#endif /* ENZYME_RUNTIME_OPENMP_CHECK_H */
