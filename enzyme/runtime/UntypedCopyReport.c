/*===- UntypedCopyReport.c - A copy whose contents nothing types ----------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * In reverse mode a copy of memory with derivatives must move the adjoints
 * of the floating-point values it copies, and must not add up the bits of
 * integers or addresses. When nothing in the program says what a copy moves
 * (Analysis/MemoryTypes.h), the engine does not guess: it checks here, when
 * the copy runs and when its reverse does, that the shadows of the copied
 * bytes are zero, so that nothing moves whatever they hold, and otherwise
 * stops the program with a message (Modes/UntypedCopyGuards.h). Often such
 * a copy never runs: std::function's clone path, say, is compiled into
 * every derivative that copies a closure but runs only when a std::function
 * is copied.
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"

/* FUNCTION: the differentiated function, as the user would name it; WHERE:
 * "file:line:column" of the copy, or null without debug info; BYTES: how
 * many bytes it copies. */
__attribute__((noreturn, cold, noinline)) static void
report(const char *function, const char *where, unsigned long bytes) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: the derivative of '");
  append(&m, function);
  append(&m, "' copied ");
  append_number(&m, bytes);
  append(&m, " bytes of memory with derivatives whose shadow is not zero");
  if (where) {
    append(&m, " at ");
    append(&m, where);
  }
  append(&m, ", and nothing in the program says whether they hold "
             "floating-point values (whose derivatives the copy moves) or "
             "integers and addresses; copy with a typed assignment, access "
             "the memory as its type in the differentiated code, say what it "
             "holds with __enzyme_double(ptr, bytes), or build with "
             "-fstrict-aliasing, see docs/reverse-mode.md\n");
  write_and_abort(&m);
}

static int all_zero(const unsigned char *p, unsigned long bytes) {
  if (!p)
    return 1;
  unsigned char any = 0;
  for (unsigned long i = 0; i < bytes; ++i)
    any |= p[i];
  return !any;
}

/* DST, SRC: the shadows of the copy's destination and source (SRC null at
 * the reverse, which reads the destination only); BYTES: how many bytes it
 * copies. */
void __enzyme_rt_untyped_copy_check(const void *dst, const void *src,
                                    unsigned long bytes, const char *function,
                                    const char *where) {
  if (__builtin_expect(all_zero(dst, bytes) && all_zero(src, bytes), 1))
    return;
  report(function, where, bytes);
}
