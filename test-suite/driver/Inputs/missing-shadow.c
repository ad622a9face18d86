extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void h(double *p) { *p = *p * *p; }
void g(double *x) {
  // The shadow of x is missing.
  __enzyme_autodiff((void *)h, enzyme_dup, x);
}
