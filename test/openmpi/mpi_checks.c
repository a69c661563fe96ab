/*
 * MPI programs for run_openmpi.sh: Debian's Open MPI 4.1 on our libpmix.
 * Built with mpicc by the script; it does not link libpmix itself (Open MPI
 * dlopens it through mca_pmix_ext3x), so the "lib" check finds it with
 * dlsym and /proc.
 *
 *   mpi_checks <case>     case: hello | barrier | allreduce | ring | lib | topo | publish
 *                         | spawn (its children run "spawn-child")
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
#include <unistd.h>

static int rank, size;
static const char* which;
static const char* program;  /* argv[0]: what spawn starts again */

static void Fail(const char* why) {
  printf("%s %d FAIL: %s\n", which, rank, why);
  fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void Ok(const char* detail) {
  printf("%s %d of %d ok%s%s\n", which, rank, size, detail[0] ? " " : "", detail);
}

static void Hello(void) { Ok(""); }

/* Rank 0 arrives 300 ms late: nobody may leave a barrier before it comes. */
/* Rank 0 creates a marker file late, just before it enters a barrier:
 * every rank that leaves that barrier must see the file. Causal, not
 * timed (a rank descheduled on a busy node cannot fail it). */
static void Barrier(void) {
  for (int i = 0; i < 20; i++) MPI_Barrier(MPI_COMM_WORLD);
  long id = rank == 0 ? (long)getpid() : 0;
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const char* tmp = getenv("TMPDIR");
  char path[512];
  snprintf(path, sizeof path, "%s/mpi_checks.barrier.%ld", tmp != NULL && *tmp ? tmp : "/tmp", id);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    usleep(100 * 1000); /* a barrier that lets the others out early would */
    FILE* f = fopen(path, "w");
    if (f == NULL) Fail("cannot create the marker file");
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int seen = access(path, F_OK) == 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(path);
  if (!seen) Fail("left the barrier before rank 0 entered it");
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

/* Whether this rank adopted a shared hwloc topology: the file of an hwloc
 * shared-memory topology (hwloc_shmem_topology_adopt maps it at the
 * writer's address; Open MPI keeps it mapped until MPI_Finalize) shows in
 * /proc/self/maps. Prints the file's name, or "none". */
static void Topo(void) {
  char line[4096], found[1024] = "none";
  FILE* f = fopen("/proc/self/maps", "r");
  if (f == NULL) Fail("cannot read /proc/self/maps");
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    char* name = strrchr(line, '/');
    size_t n = name == NULL ? 0 : strlen(name);
    if (n < 4 || strstr(name, "hwloc") == NULL || strcmp(name + n - 3, ".sm") != 0) continue;
    snprintf(found, sizeof found, "%s", name + 1);
    break;
  }
  fclose(f);
  char detail[1100];
  snprintf(detail, sizeof detail, "shmem=%s", found);
  Ok(detail);
}

/* Rank 0 publishes a service name (mpirun's data server or pmixrun's holds it);
 * after a barrier the others look it up; rank 0 unpublishes it and then
 * nobody finds it. */
static void Publish(void) {
  const char* service = "mpi-checks-service";  /* not "pmix...": reserved keys */
  char port[MPI_MAX_PORT_NAME] = "port-of-rank-0", found[MPI_MAX_PORT_NAME] = "";
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0 && MPI_Publish_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS)
    Fail("MPI_Publish_name failed");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) {
    if (MPI_Lookup_name(service, MPI_INFO_NULL, found) != MPI_SUCCESS) Fail("MPI_Lookup_name failed");
    if (strcmp(found, port) != 0) Fail("MPI_Lookup_name found the wrong port");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0 && MPI_Unpublish_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS)
    Fail("MPI_Unpublish_name failed");
  MPI_Barrier(MPI_COMM_WORLD);
  if (MPI_Lookup_name(service, MPI_INFO_NULL, found) == MPI_SUCCESS)
    Fail("MPI_Lookup_name found an unpublished name");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  Ok("");
}

/* MPI_Comm_spawn of 2 children (PMIx_Spawn, then PMIx_Connect between the
 * two jobs); the parents' root broadcasts a token over the
 * intercommunicator, every child sends it back with its rank to parent
 * rank 0, and both sides MPI_Comm_disconnect. */
enum { kChildren = 2, kToken = 4242 };

static void Spawn(void) {
  MPI_Comm inter;
  int errcodes[kChildren];
  char* args[] = {"spawn-child", NULL};
  if (MPI_Comm_spawn(program, args, kChildren, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                     errcodes) != MPI_SUCCESS)
    Fail("MPI_Comm_spawn failed");
  int remote = 0;
  MPI_Comm_remote_size(inter, &remote);
  if (remote != kChildren) Fail("the intercommunicator has the wrong remote size");
  int token = kToken + size;
  MPI_Bcast(&token, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  if (rank == 0) {
    int seen = 0;
    for (int i = 0; i < kChildren; i++) {
      int got[2] = {-1, -1};
      MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, 9, inter, MPI_STATUS_IGNORE);
      if (got[1] != kToken + size || got[0] < 0 || got[0] >= kChildren) Fail("a child answered wrong");
      seen |= 1 << got[0];
    }
    if (seen != (1 << kChildren) - 1) Fail("not every child answered");
  }
  MPI_Comm_disconnect(&inter);
  Ok("");
}

static void SpawnChild(void) {
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent == MPI_COMM_NULL) Fail("spawn-child has no parent");
  int token = -1;
  MPI_Bcast(&token, 1, MPI_INT, 0, parent);
  if (token <= kToken) Fail("spawn-child got the wrong token");
  int reply[2] = {rank, token};
  MPI_Send(reply, 2, MPI_INT, 0, 9, parent);
  MPI_Comm_disconnect(&parent);
  Ok("");
}

int main(int argc, char** argv) {
  static const struct {
    const char* name;
    void (*run)(void);
  } kCases[] = {{"hello", Hello},
                {"barrier", Barrier},
                {"allreduce", Allreduce},
                {"ring", Ring},
                {"lib", Lib},
                {"topo", Topo},
                {"publish", Publish},
                {"spawn", Spawn},
                {"spawn-child", SpawnChild}};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  which = argc > 1 ? argv[1] : "hello";
  program = argv[0];
  size_t i;
  for (i = 0; i < sizeof kCases / sizeof kCases[0]; i++)
    if (strcmp(kCases[i].name, which) == 0) break;
  if (i == sizeof kCases / sizeof kCases[0]) Fail("unknown case");
  kCases[i].run();
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
