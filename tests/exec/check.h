/* tests/exec/check.h: the one check macro of the C API's test programs.
 * CHECK(cond, fmt, ...) prints "FAIL rank R: <message>" and counts the
 * failure; each program sets me and n after MPI_Init and reports failures
 * at the end. */
#ifndef LUMPI_TESTS_EXEC_CHECK_H
#define LUMPI_TESTS_EXEC_CHECK_H

#include <stdio.h>

static int failures = 0;
static int me, n;

#define CHECK(cond, ...)                       \
  do {                                         \
    if (!(cond)) {                             \
      printf("FAIL rank %d: ", me);            \
      printf(__VA_ARGS__);                     \
      printf("\n");                            \
      failures++;                              \
    }                                          \
  } while (0)

#endif
