// clref: the compiled reference for gocl's transfer benchmark (issue 4).
//
// It makes, in plain OpenCL C, the calls that bench/transfer/cells.ipynb
// makes from notebook cells, so that one run on one machine gives both sets
// of figures:
//
//   1. clCreateBuffer(READ_WRITE | COPY_HOST_PTR) from pageable memory;
//   2. three non-blocking clEnqueueWriteBuffer calls from that pageable
//      memory: time until the call returned, until the event completed, and
//      the device time from profiling;
//   3. pinned memory (an ALLOC_HOST_PTR buffer, mapped): five non-blocking
//      writes and three non-blocking reads, timed the same way;
//   4. two non-blocking reads into pageable memory;
//   5. 10,000 blocking 8-byte writes from pageable memory, first without an
//      event (the least the driver allows), then asking for an event and
//      releasing it, then also registering a no-op completion callback on
//      it (what gocl's binding does for every command);
//   6. three more pinned writes whose end is seen through a completion
//      callback (clSetEventCallback) instead of clWaitForEvents: how late
//      the driver reports completion to a binding that waits that way.
//
// Build:  gcc -O2 -std=c11 -Wall -o bench/transfer/bin/clref bench/transfer/clref.c -lOpenCL
//         (or: make -C bench/transfer)
// Run:    bench/transfer/bin/clref [N]        N float64 values, default 5e8 (4 GB)
//
// CLREF_DEVICE (else GOCL_CTX, else PYOPENCL_CTX) picks the device the way
// gocl's cl.CreateSomeContext does: "P:D" indexes, or a name substring that
// matches a platform name or vendor, else a device name ("nvidia",
// "nvidia:h200"). Unset: the first GPU, else the first device.
//
// It prints one JSON object on stdout; progress and errors go to stderr.
// The exit status is 1 when an OpenCL call fails or a copy comes back wrong,
// 2 for bad arguments.
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <ctype.h>
#include <stdatomic.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SMALL_ITERS 10000
#define SMALL_WARMUP 100
#define NWRITES 3   // pageable writes, as in the seed experiment
#define NPINW 5
#define NCB 3
#define NREADS 3
#define NPAGEREADS 2

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char *code_name(cl_int e) {
	switch (e) {
	case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
	case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
	case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
	case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
	case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
	case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
	case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
	case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
	case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
	case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
	case CL_INVALID_HOST_PTR: return "CL_INVALID_HOST_PTR";
	case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
	case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
	case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
	case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
	default: return "unknown status";
	}
}

// CK stops the program with the failing call, its status and a hint.
#define CK(x) ck((x), #x, __LINE__)
static void ck(cl_int e, const char *what, int line) {
	if (e == CL_SUCCESS)
		return;
	fprintf(stderr, "clref: %s failed: %s (%d) at clref.c:%d\n", what, code_name(e), e, line);
	if (e == -1001)
		fprintf(stderr, "clref: the ICD loader found no platform; run `gocl doctor` (NVIDIA: OCL_ICD_FILENAMES=libnvidia-opencl.so.1)\n");
	exit(1);
}

static void die(const char *msg) {
	fprintf(stderr, "clref: %s\n", msg);
	exit(1);
}

// One timed command: the call's return, the wait's end (both from just
// before the call) and the device's start-to-end time.
struct timing {
	double ret, done, device;
};

static double prof_device(cl_event ev) {
	cl_ulong s, e;
	CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
	CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL));
	return (double)(e - s) * 1e-9;
}

// between is what the host does before each timed call, for diagnosis
// (bench/hostblocked's -between, in a process of its own): CLREF_SPIN_US
// spins that long touching no memory, CLREF_CHURN_BYTES reads and writes
// that many bytes a cache line at a time, as an interpreter's work between
// two calls would. Both unset: nothing, clref's measurement as always.
static void between(void) {
	static int init;
	static double spin;
	static size_t churn;
	static volatile unsigned char *mem;
	if (!init) {
		init = 1;
		const char *s = getenv("CLREF_SPIN_US"), *c = getenv("CLREF_CHURN_BYTES");
		spin = s ? atof(s) * 1e-6 : 0;
		churn = c ? (size_t)atoll(c) : 0;
		if (churn && !(mem = calloc(churn, 1)))
			die("CLREF_CHURN_BYTES: out of memory");
	}
	if (spin > 0)
		for (double t = now(); now() - t < spin;)
			;
	for (size_t i = 0; i < churn; i += 64)
		mem[i]++;
}

// transfer makes one non-blocking write (or read) and times it.
static struct timing transfer(cl_command_queue q, cl_mem buf, int write, size_t bytes, void *host) {
	struct timing t;
	cl_event ev;
	between();
	double t0 = now();
	if (write)
		CK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, host, 0, NULL, &ev));
	else
		CK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, bytes, host, 0, NULL, &ev));
	t.ret = now() - t0;
	CK(clWaitForEvents(1, &ev));
	t.done = now() - t0;
	t.device = prof_device(ev);
	CK(clReleaseEvent(ev));
	return t;
}

// Completion seen through a callback: the callback stamps the time and
// raises the flag; the main thread spins on the flag.
static _Atomic int cb_fired;
static double cb_time;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *data) {
	(void)ev;
	(void)status;
	(void)data;
	cb_time = now();
	atomic_store(&cb_fired, 1);
}

static void CL_CALLBACK no_op(cl_event ev, cl_int status, void *data) {
	(void)ev;
	(void)status;
	(void)data;
}

// transfer_cb makes one non-blocking write and waits for it through a
// completion callback.
static struct timing transfer_cb(cl_command_queue q, cl_mem buf, size_t bytes, void *host) {
	struct timing t;
	cl_event ev;
	atomic_store(&cb_fired, 0);
	double t0 = now();
	CK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, host, 0, NULL, &ev));
	t.ret = now() - t0;
	CK(clSetEventCallback(ev, CL_COMPLETE, on_complete, NULL));
	CK(clFlush(q));
	while (!atomic_load(&cb_fired))
		;
	t.done = cb_time - t0;
	t.device = prof_device(ev);
	CK(clReleaseEvent(ev));
	return t;
}

// ---- device choice, as gocl's GOCL_CTX ----

static int contains_fold(const char *s, const char *sub) {
	size_t n = strlen(s), m = strlen(sub);
	if (m == 0)
		return 1;
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;
		while (j < m && tolower((unsigned char)s[i + j]) == tolower((unsigned char)sub[j]))
			j++;
		if (j == m)
			return 1;
	}
	return 0;
}

static int parse_index(const char *s, int *out) {
	if (*s == 0)
		return 0;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end != 0 || v < 0 || v > 1000)
		return 0;
	*out = (int)v;
	return 1;
}

static void trim(char *s) {
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	size_t i = 0;
	while (isspace((unsigned char)s[i]))
		i++;
	memmove(s, s + i, n - i + 1);
}

#define MAXP 16
#define MAXD 64

static void info_str(cl_platform_id p, cl_platform_info what, char *out, size_t n) {
	out[0] = 0;
	if (clGetPlatformInfo(p, what, n, out, NULL) != CL_SUCCESS)
		out[0] = 0;
	out[n - 1] = 0;
}

static void dev_str(cl_device_id d, cl_device_info what, char *out, size_t n) {
	out[0] = 0;
	if (clGetDeviceInfo(d, what, n, out, NULL) != CL_SUCCESS)
		out[0] = 0;
	out[n - 1] = 0;
}

static cl_uint devices_of(cl_platform_id p, cl_device_id *devs) {
	cl_uint nd = 0;
	cl_int rc = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, MAXD, devs, &nd);
	if (rc == CL_DEVICE_NOT_FOUND)
		return 0;
	CK(rc);
	return nd > MAXD ? MAXD : nd;
}

static cl_device_id choose_device(const char **from_out, const char **sel_out) {
	cl_platform_id plats[MAXP];
	cl_uint np = 0;
	CK(clGetPlatformIDs(MAXP, plats, &np));
	if (np > MAXP)
		np = MAXP;
	if (np == 0)
		die("the OpenCL loader lists no platform; run `gocl doctor`");
	cl_device_id devs[MAXD];
	const char *from = "CLREF_DEVICE", *env = getenv("CLREF_DEVICE");
	if (!env || !*env)
		from = "GOCL_CTX", env = getenv("GOCL_CTX");
	if (!env || !*env)
		from = "PYOPENCL_CTX", env = getenv("PYOPENCL_CTX");
	char sel[256] = "";
	if (env)
		snprintf(sel, sizeof sel, "%s", env);
	trim(sel);
	*from_out = from;
	*sel_out = env ? env : "";
	if (!*sel) {
		cl_device_id first = NULL;
		for (cl_uint i = 0; i < np; i++) {
			cl_uint nd = devices_of(plats[i], devs);
			for (cl_uint j = 0; j < nd; j++) {
				cl_device_type ty;
				CK(clGetDeviceInfo(devs[j], CL_DEVICE_TYPE, sizeof ty, &ty, NULL));
				if (ty & CL_DEVICE_TYPE_GPU)
					return devs[j];
				if (!first)
					first = devs[j];
			}
		}
		if (!first)
			die("the platforms have no device; run `gocl doctor`");
		return first;
	}
	char *colon = strchr(sel, ':');
	int has_dev = colon != NULL;
	char ppart[256], dpart[256] = "";
	if (colon) {
		*colon = 0;
		snprintf(dpart, sizeof dpart, "%s", colon + 1);
	}
	snprintf(ppart, sizeof ppart, "%s", sel);
	trim(ppart);
	trim(dpart);
	int cand[MAXP], nc = 0, pi;
	if (parse_index(ppart, &pi)) {
		if ((cl_uint)pi >= np) {
			fprintf(stderr, "clref: %s=%s: there is no platform %d (%u platforms)\n", from, env, pi, np);
			exit(2);
		}
		cand[nc++] = pi;
	} else {
		char name[512], vendor[512];
		for (cl_uint i = 0; i < np; i++) {
			info_str(plats[i], CL_PLATFORM_NAME, name, sizeof name);
			info_str(plats[i], CL_PLATFORM_VENDOR, vendor, sizeof vendor);
			if (contains_fold(name, ppart) || contains_fold(vendor, ppart))
				cand[nc++] = (int)i;
		}
		if (nc == 0 && !has_dev) {
			for (cl_uint i = 0; i < np; i++) {
				cl_uint nd = devices_of(plats[i], devs);
				for (cl_uint j = 0; j < nd; j++) {
					dev_str(devs[j], CL_DEVICE_NAME, name, sizeof name);
					if (contains_fold(name, ppart))
						return devs[j];
				}
			}
		}
		if (nc == 0) {
			fprintf(stderr, "clref: %s=%s: no platform%s name contains \"%s\"\n", from, env, has_dev ? "" : " or device", ppart);
			exit(2);
		}
	}
	for (int c = 0; c < nc; c++) {
		cl_uint nd = devices_of(plats[cand[c]], devs);
		if (!has_dev || !*dpart) {
			if (nd > 0)
				return devs[0];
			continue;
		}
		int di;
		if (parse_index(dpart, &di)) {
			if ((cl_uint)di < nd)
				return devs[di];
			continue;
		}
		char name[512];
		for (cl_uint j = 0; j < nd; j++) {
			dev_str(devs[j], CL_DEVICE_NAME, name, sizeof name);
			if (contains_fold(name, dpart))
				return devs[j];
		}
	}
	fprintf(stderr, "clref: %s=%s: no matching device on the chosen platform\n", from, env);
	exit(2);
}

// ---- JSON output ----

static void json_str(const char *s) {
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_timings(const char *key, const struct timing *t, int n, size_t bytes) {
	printf(",\n  \"%s\": [", key);
	for (int i = 0; i < n; i++)
		printf("%s\n    {\"return_s\": %.9f, \"done_s\": %.9f, \"device_s\": %.9f, \"gbps\": %.4f}",
		       i ? "," : "", t[i].ret, t[i].done, t[i].device, t[i].device > 0 ? (double)bytes / t[i].device / 1e9 : 0.0);
	printf("\n  ]");
}

// small times iters blocking 8-byte writes; with_event 1 asks for and
// releases an event each time, 2 also registers a no-op callback on it.
static double small_writes(cl_command_queue q, cl_mem small, double *x, int with_event) {
	double t0 = 0;
	for (int i = -SMALL_WARMUP; i < SMALL_ITERS; i++) {
		if (i == 0)
			t0 = now();
		*x = (double)i;
		if (with_event) {
			cl_event ev;
			CK(clEnqueueWriteBuffer(q, small, CL_TRUE, 0, sizeof *x, x, 0, NULL, &ev));
			if (with_event == 2)
				CK(clSetEventCallback(ev, CL_COMPLETE, no_op, NULL));
			CK(clReleaseEvent(ev));
		} else {
			CK(clEnqueueWriteBuffer(q, small, CL_TRUE, 0, sizeof *x, x, 0, NULL, NULL));
		}
	}
	return (now() - t0) / SMALL_ITERS;
}

int main(int argc, char **argv) {
	if (argc > 2) {
		fprintf(stderr, "usage: clref [N]   (N float64 values, default 5e8)\n");
		return 2;
	}
	double nf = 5e8;
	if (argc == 2) {
		char *end;
		nf = strtod(argv[1], &end);
		if (*end != 0 || !(nf >= 1) || nf > 1e12 || nf != floor(nf)) {
			fprintf(stderr, "clref: N must be a whole number of float64 values >= 1, got %s\n", argv[1]);
			return 2;
		}
	}
	size_t n = (size_t)nf, bytes = n * sizeof(double);

	const char *from, *sel;
	cl_device_id dev = choose_device(&from, &sel);
	cl_platform_id plat;
	CK(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL));
	char pname[512], dname[512], driver[512], dver[512];
	info_str(plat, CL_PLATFORM_NAME, pname, sizeof pname);
	dev_str(dev, CL_DEVICE_NAME, dname, sizeof dname);
	dev_str(dev, CL_DRIVER_VERSION, driver, sizeof driver);
	dev_str(dev, CL_DEVICE_VERSION, dver, sizeof dver);
	cl_ulong maxalloc = 0;
	CK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL));
	if (bytes > maxalloc) {
		fprintf(stderr, "clref: %zu bytes is more than %s's max allocation of %llu bytes; use a smaller N\n",
		        bytes, dname, (unsigned long long)maxalloc);
		return 2;
	}
	fprintf(stderr, "clref: %s / %s, %zu bytes\n", pname, dname, bytes);

	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
	CK(err);

	double *a = malloc(bytes);
	if (!a)
		die("out of host memory for the pageable array; use a smaller N");
	for (size_t i = 0; i < n; i++)
		a[i] = (double)(i % 1000003) * 1e-6;

	// 1-2. The seed experiment: pageable memory.
	double t0 = now();
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
	double create = now() - t0;
	CK(err);
	struct timing pw[NWRITES], pinw[NPINW], pinr[NREADS], pr[NPAGEREADS], pincb[NCB];
	for (int i = 0; i < NWRITES; i++)
		pw[i] = transfer(q, buf, 1, bytes, a);

	// 3. Pinned memory: ALLOC_HOST_PTR, mapped once.
	cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	CK(err);
	double *p = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
	CK(err);
	if (!p)
		die("clEnqueueMapBuffer returned NULL");
	memcpy(p, a, bytes);
	for (int i = 0; i < NPINW; i++)
		pinw[i] = transfer(q, buf, 1, bytes, p);
	memset(p, 0, bytes);
	for (int i = 0; i < NREADS; i++)
		pinr[i] = transfer(q, buf, 0, bytes, p);
	if (memcmp(p, a, bytes) != 0)
		die("the pinned read-back differs from what was written");

	// 4. Pageable reads.
	for (int i = 0; i < NPAGEREADS; i++)
		pr[i] = transfer(q, buf, 0, bytes, a);
	if (memcmp(p, a, bytes) != 0)
		die("the pageable read-back differs from what was written");

	// 6 (made here, while the pinned memory is mapped). Pinned writes seen
	// through a completion callback.
	for (int i = 0; i < NCB; i++)
		pincb[i] = transfer_cb(q, buf, bytes, p);

	// 5. Small blocking writes.
	cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(double), NULL, &err);
	CK(err);
	double x = 0;
	double per = small_writes(q, small, &x, 0);
	double perEv = small_writes(q, small, &x, 1);
	double perCb = small_writes(q, small, &x, 2);
	double back = -1;
	CK(clEnqueueReadBuffer(q, small, CL_TRUE, 0, sizeof back, &back, 0, NULL, NULL));
	if (back != (double)(SMALL_ITERS - 1))
		die("the 8-byte buffer does not hold the last value written");

	CK(clEnqueueUnmapMemObject(q, pin, p, 0, NULL, NULL));
	CK(clFinish(q));
	clReleaseMemObject(small);
	clReleaseMemObject(pin);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(a);

	printf("{\n  \"source\": \"clref\",\n  \"platform\": ");
	json_str(pname);
	printf(",\n  \"device\": ");
	json_str(dname);
	printf(",\n  \"driver\": ");
	json_str(driver);
	printf(",\n  \"device_version\": ");
	json_str(dver);
	printf(",\n  \"selector\": ");
	json_str(sel);
	printf(",\n  \"selector_from\": ");
	json_str(*sel ? from : "");
	printf(",\n  \"n\": %zu,\n  \"bytes\": %zu,\n  \"create_copy_host_ptr_s\": %.9f", n, bytes, create);
	json_timings("pageable_write", pw, NWRITES, bytes);
	json_timings("pinned_write", pinw, NPINW, bytes);
	json_timings("pinned_read", pinr, NREADS, bytes);
	json_timings("pageable_read", pr, NPAGEREADS, bytes);
	printf(",\n  \"small_write\": {\"iters\": %d, \"bytes\": 8, \"per_copy_s\": %.9f}", SMALL_ITERS, per);
	json_timings("pinned_write_callback", pincb, NCB, bytes);
	printf(",\n  \"small_write_event\": {\"iters\": %d, \"bytes\": 8, \"per_copy_s\": %.9f}", SMALL_ITERS, perEv);
	printf(",\n  \"small_write_callback\": {\"iters\": %d, \"bytes\": 8, \"per_copy_s\": %.9f}\n}\n", SMALL_ITERS, perCb);
	return 0;
}
