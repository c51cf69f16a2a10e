// coldpath: is the host colder after a long wait, in plain C with no Go?
// (issue 21: the cell's own work in a pinned write is 4.5-5.4 µs after a
// 4e8-byte copy's 7 ms wait and 6.3-10 µs after a 4e9-byte copy's 72 ms one,
// and C's own driver call is slower there too.)
//
// Each trial: warm the probes' data, wait one of the conditions below, then
// time one probe, on one thread, the conditions and probes in turn:
//   conditions: warm (the probe once more, at once), spin 1/2/7/72 ms (a loop
//     on the clock), spin 72 ms chasing the 32K ring every 100 µs (does
//     touching a working set during a wait keep it?), sleep 7/72 ms
//     (nanosleep: the CPU may idle), gpu 4e8/4e9
//     (a pinned non-blocking write of that many bytes, waited in
//     clWaitForEvents as a C program waits), gpu 4e9 poll (the same copy,
//     waited by polling its status in a loop), gpu 4e9 then sleep (the copy
//     waited by sleeping past its end)
//   probes: chase 32K (a pointer chase over 512 cache lines, L1-sized),
//     chase 1M (16384 lines, L2-sized), enqueue (a non-blocking 4e8-byte
//     pinned clEnqueueWriteBuffer: the driver call, as bench/hostblocked's C)
// It prints a markdown table of medians (p10, p90) and how often the CPU
// changed during the wait, then per condition the host's steal time (is the
// vCPU descheduled while it waits?) and the thread's involuntary switches.
//
//   cc -O2 -o coldpath bench/coldpath/coldpath.c -lOpenCL
//   coldpath [rounds] [big bytes] [small bytes]
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

static long long now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static cl_command_queue q;
static cl_mem dbig, hbig, dsmall;
static void *hostbig;
static size_t big, small;

static void die(const char *what, cl_int e) {
	fprintf(stderr, "coldpath: %s failed (%d)\n", what, e);
	exit(1);
}

static void setup(void) {
	cl_platform_id ps[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) die("clGetPlatformIDs", 0);
	if (np > 16) np = 16;
	cl_device_id dev = NULL;
	for (int want = 0; want < 2 && !dev; want++)
		for (cl_uint i = 0; i < np && !dev; i++) {
			cl_uint nd = 0;
			cl_device_type t = want == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
			if (clGetDeviceIDs(ps[i], t, 1, &dev, &nd) != CL_SUCCESS) dev = NULL;
		}
	if (!dev) die("finding a device", 0);
	char name[256] = "";
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
	printf("device: %s\n\n", name);
	cl_int e;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	if (e) die("clCreateContext", e);
	q = clCreateCommandQueue(ctx, dev, 0, &e);
	if (e) die("clCreateCommandQueue", e);
	dbig = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &e);
	if (e) die("clCreateBuffer (device)", e);
	dsmall = clCreateBuffer(ctx, CL_MEM_READ_WRITE, small, NULL, &e);
	if (e) die("clCreateBuffer (device, small)", e);
	hbig = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, big, NULL, &e);
	if (e) die("clCreateBuffer (pinned)", e);
	hostbig = clEnqueueMapBuffer(q, hbig, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, big, 0, NULL, NULL, &e);
	if (e || !hostbig) die("clEnqueueMapBuffer", e);
	memset(hostbig, 1, big);
}

// A ring of cache lines in a shuffled order: each line holds the next's
// address.
typedef struct line { struct line *next; char pad[56]; } line;

static line *ring(size_t n) {
	line *l = aligned_alloc(64, n * sizeof(line));
	size_t *order = malloc(n * sizeof(size_t));
	for (size_t i = 0; i < n; i++) order[i] = i;
	srand(7);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++) l[order[i]].next = &l[order[(i + 1) % n]];
	free(order);
	return l;
}

static line *r32k, *r1m;
static volatile void *sink;

static long long chase(line *l, size_t n) {
	long long t0 = now();
	line *p = l;
	for (size_t i = 0; i < n; i++) p = *(line *volatile *)&p->next;
	sink = p;
	return now() - t0;
}

static cl_event copy(size_t bytes, cl_mem dst) {
	cl_event ev;
	cl_int e = clEnqueueWriteBuffer(q, dst, CL_FALSE, 0, bytes, hostbig, 0, NULL, &ev);
	if (e) die("clEnqueueWriteBuffer", e);
	return ev;
}

static void finish(cl_event ev) {
	clWaitForEvents(1, &ev);
	clReleaseEvent(ev);
}

static void spin(long long ns) {
	long long end = now() + ns;
	while (now() < end) {
	}
}

static void nap(long long ns) {
	struct timespec d = {(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
	nanosleep(&d, NULL);
}

enum { PCHASE32, PCHASE1M, PENQ, NPROBE };
static const char *probes[NPROBE] = {"chase 32K (512 lines)", "chase 1M (16384 lines)", "enqueue 4e8-byte pinned write"};

// probe runs probe p and returns its time (ns).
static long long probe(int p) {
	switch (p) {
	case PCHASE32:
		return chase(r32k, 512);
	case PCHASE1M:
		return chase(r1m, 16384);
	}
	cl_event ev;
	long long t0 = now();
	cl_int e = clEnqueueWriteBuffer(q, dsmall, CL_FALSE, 0, small, hostbig, 0, NULL, &ev);
	long long t = now() - t0;
	if (e) die("clEnqueueWriteBuffer (probe)", e);
	finish(ev);
	return t;
}

enum { CWARM, CSPIN1, CSPIN2, CSPIN7, CSPIN72, CSPINTOUCH, CSLEEP7, CSLEEP72, CGPUS, CGPUB, CGPUBPOLL, CGPUBSLEEP, NCOND };
static const char *conds[NCOND] = {"warm (the probe again at once)", "spin 1 ms", "spin 2 ms", "spin 7 ms", "spin 72 ms", "spin 72 ms, chasing the 32K ring every 100 µs", "sleep 7 ms", "sleep 72 ms",
	"gpu small copy, clWaitForEvents", "gpu big copy, clWaitForEvents", "gpu big copy, polled in a loop", "gpu big copy, slept past its end"};

// condition waits condition c; for warm it runs the probe once untimed.
static void condition(int c, int p) {
	cl_event ev;
	cl_int s;
	long long t0;
	switch (c) {
	case CWARM:
		probe(p);
		if (p == PENQ) {
			// the driver path warm without a wait: one more enqueue, left queued
			cl_event w = copy(small, dsmall);
			clReleaseEvent(w);
		}
		break;
	case CSPIN1: spin(1000000); break;
	case CSPIN2: spin(2000000); break;
	case CSPIN7: spin(7000000); break;
	case CSPIN72: spin(72000000); break;
	case CSPINTOUCH:
		t0 = now();
		while (now() - t0 < 72000000LL) {
			chase(r32k, 512);
			spin(100000);
		}
		break;
	case CSLEEP7: nap(7000000); break;
	case CSLEEP72: nap(72000000); break;
	case CGPUS: finish(copy(small, dsmall)); break;
	case CGPUB: finish(copy(big, dbig)); break;
	case CGPUBPOLL:
		ev = copy(big, dbig);
		do {
			clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
		} while (s > CL_COMPLETE);
		clReleaseEvent(ev);
		break;
	case CGPUBSLEEP:
		t0 = now();
		ev = copy(big, dbig);
		clFlush(q);
		nap(150000000LL - (now() - t0));
		finish(ev);
		break;
	}
}

// steal is the host's steal time of CPU cpu so far (USER_HZ ticks, from
// /proc/stat), or -1 when the kernel does not say.
static long long steal(int cpu) {
	FILE *f = fopen("/proc/stat", "r");
	if (!f) return -1;
	char want[32], line[512];
	snprintf(want, sizeof want, "cpu%d ", cpu);
	long long v = -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, want, strlen(want)) == 0) {
			long long x[8];
			if (sscanf(line + strlen(want), "%lld %lld %lld %lld %lld %lld %lld %lld", &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7]) == 8) v = x[7];
			break;
		}
	fclose(f);
	return v;
}

// involuntary is how often the kernel has preempted this thread.
static long involuntary(void) {
	struct rusage u;
	getrusage(RUSAGE_THREAD, &u);
	return u.ru_nivcsw;
}

static int cmp(const void *a, const void *b) {
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	big = argc > 2 ? (size_t)atof(argv[2]) : 4000000000UL;
	small = argc > 3 ? (size_t)atof(argv[3]) : 400000000UL;
	setup();
	r32k = ring(512);
	r1m = ring(16384);
	// Warm-up: the driver's lazy work.
	for (int i = 0; i < 3; i++) {
		finish(copy(big, dbig));
		probe(PENQ);
	}
	long long *t = calloc((size_t)rounds * NCOND * NPROBE, sizeof(long long));
	int moved[NCOND][NPROBE] = {{0}};
	long long stolen[NCOND] = {0}, waited[NCOND] = {0};
	long preempted[NCOND] = {0};
	int stealOK = 1;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < NCOND; k++) {
			int c = (k + r) % NCOND;
			for (int p = 0; p < NPROBE; p++) {
				if (p == PENQ) clFinish(q);
				chase(r1m, 16384); // warm the probes' data
				chase(r32k, 512);
				int cpu0 = sched_getcpu();
				long long s0 = steal(cpu0), w0 = now();
				long i0 = involuntary();
				condition(c, p);
				long long s1 = steal(cpu0);
				waited[c] += now() - w0;
				preempted[c] += involuntary() - i0;
				if (s0 < 0 || s1 < 0) stealOK = 0;
				else stolen[c] += s1 - s0;
				long long x = probe(p);
				if (sched_getcpu() != cpu0) moved[c][p]++;
				t[((size_t)c * NPROBE + p) * rounds + r] = x;
			}
		}
	printf("coldpath: %d rounds, big copy %.3g bytes, small copy %.3g bytes; each probe's time after the condition, median (p10, p90), and in how many trials the CPU changed from before the condition to after the probe\n\n", rounds, (double)big, (double)small);
	printf("| before the probe |");
	for (int p = 0; p < NPROBE; p++) printf(" %s |", probes[p]);
	printf("\n|---|");
	for (int p = 0; p < NPROBE; p++) printf("---|");
	printf("\n");
	for (int c = 0; c < NCOND; c++) {
		printf("| %s |", conds[c]);
		for (int p = 0; p < NPROBE; p++) {
			long long *v = &t[((size_t)c * NPROBE + p) * rounds];
			qsort(v, rounds, sizeof *v, cmp);
			printf(" %.1f µs (%.1f, %.1f); CPU moved %d |", v[rounds / 2] / 1e3, v[rounds / 10] / 1e3, v[(rounds - 1) * 9 / 10] / 1e3, moved[c][p]);
		}
		printf("\n");
	}
	long hz = sysconf(_SC_CLK_TCK);
	printf("\nDuring the conditions (all trials): the host's steal time of the CPU as a share of the time waited (/proc/stat, %ld ticks a second%s), and the kernel's involuntary switches of this thread per trial\n\n", hz, stealOK ? "" : "; not reported here");
	printf("| condition | time waited | steal | involuntary switches per trial |\n|---|---|---|---|\n");
	for (int c = 0; c < NCOND; c++)
		printf("| %s | %.2f s | %.2f%% | %.2f |\n", conds[c], waited[c] / 1e9, stealOK && waited[c] ? 100.0 * stolen[c] / hz / (waited[c] / 1e9) : 0.0, (double)preempted[c] / (rounds * NPROBE));
	return 0;
}
