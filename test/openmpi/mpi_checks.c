/*
 * MPI programs for run_openmpi.sh: Debian's Open MPI 4.1 on our libpmix.
 * Built with mpicc by the script; it does not link libpmix itself (Open MPI
 * dlopens it through mca_pmix_ext3x), so the "lib" check finds it with
 * dlsym and /proc.
 *
 *   mpi_checks <case>     case: hello | barrier | allreduce | ring | lib
 *
 * Each rank prints one line "<case> <rank> of <size> ok[ detail]" on
 * success; on failure "<case> <rank> FAIL: why" and MPI_Abort(1).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, size;
static const char* which;

static void Fail(const char* why) {
  printf("%s %d FAIL: %s\n", which, rank, why);
  fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void Ok(const char* detail) {
  printf("%s %d of %d ok%s%s\n", which, rank, size, detail[0] ? " " : "", detail);
}

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void Hello(void) { Ok(""); }

/* Rank 0 arrives 300 ms late: nobody may leave a barrier before it comes. */
static void Barrier(void) {
  for (int i = 0; i < 20; i++) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = Now();
  if (rank == 0) usleep(300 * 1000);
  MPI_Barrier(MPI_COMM_WORLD);
  double waited = Now() - start;
  if (waited < 0.25) Fail("left the barrier before rank 0 entered it");
  Ok("");
}

static void Allreduce(void) {
  long sum = 0, max = 0, mine = rank + 1;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &max, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (sum != (long)size * (size + 1) / 2) Fail("wrong sum");
  if (max != size) Fail("wrong max");
  enum { kN = 4096 };
  static double in[kN], out[kN];
  for (int i = 0; i < kN; i++) in[i] = rank * 0.5 + i;
  MPI_Allreduce(in, out, kN, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < kN; i++)
    if (out[i] != 0.25 * size * (size - 1) + (double)i * size) Fail("wrong vector sum");
  Ok("");
}

/* Each rank passes its rank to the right; then a token goes round. */
static void Ring(void) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  if (got != left) Fail("sendrecv got the wrong rank");
  long token = 0;
  if (rank == 0) {
    token = 1;
    if (size > 1) {
      MPI_Send(&token, 1, MPI_LONG, right, 8, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (token != size) Fail("the token came back wrong");
  } else {
    MPI_Recv(&token, 1, MPI_LONG, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token++;
    MPI_Send(&token, 1, MPI_LONG, right, 8, MPI_COMM_WORLD);
  }
  Ok("");
}

/* The path of the libpmix.so mapped in process pid ("self" or a number). */
static void MappedPmix(const char* pid, char* out, size_t len) {
  char path[64], line[4096];
  snprintf(path, sizeof path, "/proc/%s/maps", pid);
  snprintf(out, len, "none");
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  while (fgets(line, sizeof line, f) != NULL) {
    char* name = strchr(line, '/');
    if (name == NULL || strstr(name, "/libpmix.so") == NULL) continue;
    name[strcspn(name, "\n")] = '\0';
    snprintf(out, len, "%s", name);
    break;
  }
  fclose(f);
}

/* Which libpmix this rank and its launcher (mpirun, the parent) run. */
static void Lib(void) {
  const char* (*get_version)(void) = (const char* (*)(void))dlsym(RTLD_DEFAULT, "PMIx_Get_version");
  if (get_version == NULL) Fail("PMIx_Get_version is not loaded");
  char mine[1024], parent[1024], ppid[32], detail[3000];
  MappedPmix("self", mine, sizeof mine);
  snprintf(ppid, sizeof ppid, "%d", (int)getppid());
  MappedPmix(ppid, parent, sizeof parent);
  snprintf(detail, sizeof detail, "version=\"%s\" lib=%s mpirun_lib=%s", get_version(), mine,
           parent);
  Ok(detail);
}

int main(int argc, char** argv) {
  static const struct {
    const char* name;
    void (*run)(void);
  } kCases[] = {{"hello", Hello},
                {"barrier", Barrier},
                {"allreduce", Allreduce},
                {"ring", Ring},
                {"lib", Lib}};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  which = argc > 1 ? argv[1] : "hello";
  size_t i;
  for (i = 0; i < sizeof kCases / sizeof kCases[0]; i++)
    if (strcmp(kCases[i].name, which) == 0) break;
  if (i == sizeof kCases / sizeof kCases[0]) Fail("unknown case");
  kCases[i].run();
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
