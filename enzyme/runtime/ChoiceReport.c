/*===- ChoiceReport.c - Memory without derivatives chosen at run time -----===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * A pointer that chooses between memory with derivatives and memory without
 * (an enzyme_const argument, a global, a buffer that inactive code
 * returned) has no shadow on the second side. Generated code gives that side
 * a null shadow and checks, where the choice is made, that the program did
 * not take it (Modes/ChoiceGuards.h): Eigen's GEMM picks between a caller's
 * workspace, which is null at run time, and one of its own. If the side
 * without a shadow is taken, the derivative would be lost or written
 * through a null pointer, so the program stops here with a message.
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"

__attribute__((noreturn, cold, noinline)) static void
report(const char *function, const char *where) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: the derivative of '");
  append(&m, function);
  append(&m, "' chose a pointer to memory without derivatives (an "
             "enzyme_const argument, a global, or memory that code without "
             "derivatives provided)");
  if (where) {
    append(&m, " at ");
    append(&m, where);
  }
  append(&m, ", where derivatives go through the pointer; pass that memory "
             "with enzyme_dup and a zeroed shadow, see docs/reverse-mode.md"
             "\n");
  write_and_abort(&m);
}

/* TAKEN: the program took the side without a shadow. FUNCTION: the
 * differentiated function, as the user would name it; WHERE:
 * "file:line:column" of the choice, or null without debug info. */
void __enzyme_rt_check_choice(_Bool taken, const char *function,
                              const char *where) {
  if (__builtin_expect(taken, 0))
    report(function, where);
}
