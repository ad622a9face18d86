/* For indirect-call-inactive-declaration.c: a library function without
 * bitcode (built with plain clang). */
double jitter(const double *x) { return 1e-3 * (x[0] > 0 ? 1 : -1); }
