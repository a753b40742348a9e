/* tests/exec/dlopen_host.c: a program that knows nothing of MPI (built with
 * plain cc, not lumpi-cc) dlopen()s the shared object argv[1]
 * (shared_module.c, built with lumpi-cc -shared -fPIC) and calls its
 * module_run: under `lumpi exec` the process becomes a rank through the
 * module. Every rank checks the sum; rank 0 prints it. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  void *module;
  int (*run)(int *, int *);
  int rank = -1, size = 0, sum;
  if (argc != 2) {
    fprintf(stderr, "usage: dlopen_host module.so\n");
    return 2;
  }
  module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!module) {
    fprintf(stderr, "dlopen_host: %s\n", dlerror());
    return 3;
  }
  *(void **)&run = dlsym(module, "module_run");
  if (!run) {
    fprintf(stderr, "dlopen_host: %s\n", dlerror());
    return 3;
  }
  sum = run(&rank, &size);
  if (sum != size * (size + 1) / 2) {
    fprintf(stderr, "dlopen_host: rank %d of %d: sum %d\n", rank, size, sum);
    return 1;
  }
  if (rank == 0) printf("module: %d ranks, sum %d\n", size, sum);
  return 0;
}
