/* The service benchmark's C baseline as a process of its own (service.h).
 * Usage: service <cubin> <identity: 1 over the stand-in> <requests> <concurrency>...
 * Prints {"N": {"throughput": requests/s, "p50": ns, "p99": ns}, ...}. */
#include "service.h"

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s <cubin> <identity> <requests> <concurrency>...\n", argv[0]);
    return 2;
  }
  unsigned requests = (unsigned)atoi(argv[3]);
  int most = 0;
  for (int i = 4; i < argc; i++) most = atoi(argv[i]) > most ? atoi(argv[i]) : most;
  struct service svc;
  serviceOpen(&svc, argv[1], atoi(argv[2]), most, requests);
  printf("{");
  for (int i = 4; i < argc; i++) {
    int n = atoi(argv[i]);
    struct serviceFigures f = serviceRun(&svc, n, requests);
    printf("%s\"%d\": {\"throughput\": %.1f, \"p50\": %.1f, \"p99\": %.1f}", i > 4 ? ", " : "", n, f.throughput, f.p50, f.p99);
  }
  printf("}\n");
  serviceClose(&svc);
  return 0;
}
