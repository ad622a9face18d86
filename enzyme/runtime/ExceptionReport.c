/*===- ExceptionReport.c - An exception thrown through a derivative -------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * Exceptions are not differentiated: the engine differentiates the path on
 * which no call throws. A call in generated code that may still throw is
 * an invoke whose landing pad catches everything and calls the reporter
 * below (Modes/ExceptionGuards.h), so that an exception thrown while a
 * derivative runs stops the program with a message that names the
 * function and the call, instead of unwinding through frames that were
 * built assuming it could not (and leaking tapes and shadows, or
 * terminating without a word).
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"

/* FUNCTION: the differentiated function, as the user would name it; WHERE:
 * "file:line:column" of the call that threw, or null without debug info. */
__attribute__((noreturn, cold)) void
__enzyme_rt_exception_thrown(const char *function, const char *where) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: an exception was thrown inside the derivative of '");
  append(&m, function);
  append(&m, "'");
  if (where) {
    append(&m, " (");
    append(&m, where);
    append(&m, ")");
  }
  append(&m, "; exceptions are not differentiated, see docs/reverse-mode.md"
             "\n");
  write_and_abort(&m);
}
