/* Link stand-ins for the self-test of the runtime corpus (see check.h).
 * The entry points do nothing here: in that mode the tests check their
 * own analytic expectations against finite differences, not the engine. */
__attribute__((weak)) int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
__attribute__((weak)) int enzyme_width, enzyme_allocated, enzyme_tape, enzyme_primal_return;
__attribute__((weak)) int enzyme_const_return, enzyme_active_return;
__attribute__((weak)) int enzyme_nocache, enzyme_vector, enzyme_scalar;

double __enzyme_autodiff(void) { return 0.0; }
double __enzyme_fwddiff(void) { return 0.0; }
void *__enzyme_augmentfwd(void) { return 0; }
double __enzyme_reverse(void) { return 0.0; }
unsigned long __enzyme_augmentsize(void) { return 0; }
double __enzyme_batch(void) { return 0.0; }
void *__enzyme_virtualreverse(void *f) { return f; }

/* The context API: one scratch block stands for every shadow. */
__attribute__((weak)) int enzyme_context;
static double context_scratch_[64];
void *__enzyme_context(void) { return context_scratch_; }
void __enzyme_free_context(void *ctx) { (void)ctx; }
void __enzyme_zero_shadows(void *ctx) { (void)ctx; }
void *__enzyme_shadow(void *ctx, void *global, int flags) {
  (void)ctx; (void)global; (void)flags;
  return context_scratch_;
}
/* What memory holds, for the type analysis: no effect on the program. */
void __enzyme_double(void *ptr, unsigned long bytes) { (void)ptr; (void)bytes; }
void __enzyme_float(void *ptr, unsigned long bytes) { (void)ptr; (void)bytes; }
void __enzyme_integer(void *ptr, unsigned long bytes) { (void)ptr; (void)bytes; }
void __enzyme_pointer(void *ptr, unsigned long bytes) { (void)ptr; (void)bytes; }
