/* Link stand-ins for the self-test of the runtime corpus (see check.h).
 * __enzyme_autodiff does nothing here: in that mode the tests check their
 * own analytic expectations against finite differences, not the engine. */
__attribute__((weak)) int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
__attribute__((weak)) int enzyme_width, enzyme_allocated, enzyme_tape, enzyme_primal_return;

double __enzyme_autodiff(void) { return 0.0; }
