/*===- Message.h - A run-time error message, written at once --------------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * The run-time's reports (ExceptionReport.c, ScratchShadows.c,
 * UntypedCopyReport.c, CudaLaunch.c, CudaMemory.c, CudaCopies.c) build their
 * message in a buffer and write it with one system call, so that threads
 * reporting at once do not interleave, without stdio, which may be what
 * failed; then the program stops.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_MESSAGE_H
#define ENZYME_RUNTIME_MESSAGE_H

typedef __SIZE_TYPE__ size_t;

long write(int, const void *, size_t);
__attribute__((noreturn)) void abort(void);

struct message {
  char text[1024];
  size_t length;
};

static inline __attribute__((always_inline)) void append(struct message *m,
                                                         const char *s) {
  while (*s && m->length < sizeof(m->text))
    m->text[m->length++] = *s++;
}

static inline __attribute__((always_inline)) void
append_number(struct message *m, unsigned long long n) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = (char)('0' + n % 10);
    n /= 10;
  } while (n);
  char one[2] = {0, 0};
  while (count) {
    one[0] = digits[--count];
    append(m, one);
  }
}

/* Writes m to standard error in one call and stops the program. */
static inline __attribute__((always_inline, noreturn)) void
write_and_abort(const struct message *m) {
  write(2, m->text, m->length);
  abort();
}

#endif /* ENZYME_RUNTIME_MESSAGE_H */
