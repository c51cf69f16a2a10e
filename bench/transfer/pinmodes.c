// pinmodes: is the time NVIDIA's driver takes for a pinned non-blocking
// write (10 or 30-40 us, bench/RESULTS.md) a property of the process, of
// the context, of the pinned host buffer or of the device buffer? One
// process makes CTXS contexts on the first GPU (else the first device), each with PINS pinned host
// buffers (ALLOC_HOST_PTR, mapped) and DEVS device buffers, then times a
// non-blocking write for every combination in turn, ROUNDS times, and
// prints each combination's median in microseconds.
//
//   make -C bench/transfer bin/pinmodes && bench/transfer/bin/pinmodes [BYTES [ROUNDS]]
#define _POSIX_C_SOURCE 199309L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CTXS = 2, PINS = 3, DEVS = 2, MAXR = 1000 };

static void ck(cl_int err, const char *what) {
	if (err != CL_SUCCESS) {
		fprintf(stderr, "pinmodes: %s failed (%d)\n", what, err);
		exit(1);
	}
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	size_t bytes = argc > 1 ? (size_t)atof(argv[1]) : 400000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 15;
	if (rounds < 1 || rounds > MAXR) rounds = 15;
	cl_platform_id ps[8];
	cl_uint np = 0;
	ck(clGetPlatformIDs(8, ps, &np), "clGetPlatformIDs");
	cl_device_id dev = NULL;
	for (cl_uint i = 0; i < np && i < 8 && !dev; i++)
		if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
	for (cl_uint i = 0; i < np && i < 8 && !dev; i++) // no GPU: any device (PoCL, to test the tool)
		if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
	if (!dev) {
		fprintf(stderr, "pinmodes: no OpenCL device\n");
		return 1;
	}
	cl_context ctx[CTXS];
	cl_command_queue q[CTXS];
	cl_mem pin[CTXS][PINS], buf[CTXS][DEVS];
	void *host[CTXS][PINS];
	cl_int err;
	for (int c = 0; c < CTXS; c++) {
		ctx[c] = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
		ck(err, "clCreateContext");
		q[c] = clCreateCommandQueue(ctx[c], dev, CL_QUEUE_PROFILING_ENABLE, &err);
		ck(err, "clCreateCommandQueue");
		for (int d = 0; d < DEVS; d++) {
			buf[c][d] = clCreateBuffer(ctx[c], CL_MEM_READ_WRITE, bytes, NULL, &err);
			ck(err, "clCreateBuffer");
		}
		for (int p = 0; p < PINS; p++) {
			pin[c][p] = clCreateBuffer(ctx[c], CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
			ck(err, "clCreateBuffer(ALLOC_HOST_PTR)");
			host[c][p] = clEnqueueMapBuffer(q[c], pin[c][p], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
			ck(err, "clEnqueueMapBuffer");
			memset(host[c][p], 1, bytes);
		}
	}
	static double t[CTXS][PINS][DEVS][MAXR];
	for (int r = -2; r < rounds; r++)
		for (int c = 0; c < CTXS; c++)
			for (int p = 0; p < PINS; p++)
				for (int d = 0; d < DEVS; d++) {
					cl_event ev;
					double t0 = now();
					ck(clEnqueueWriteBuffer(q[c], buf[c][d], CL_FALSE, 0, bytes, host[c][p], 0, NULL, &ev), "clEnqueueWriteBuffer");
					double dt = now() - t0;
					ck(clWaitForEvents(1, &ev), "clWaitForEvents");
					clReleaseEvent(ev);
					if (r >= 0) t[c][p][d][r] = dt;
				}
	printf("pinned non-blocking write of %zu bytes, median of %d rounds (us): context / pinned buffer / device buffer\n", bytes, rounds);
	for (int c = 0; c < CTXS; c++)
		for (int p = 0; p < PINS; p++) {
			printf("ctx %d pin %d:", c, p);
			for (int d = 0; d < DEVS; d++) {
				qsort(t[c][p][d], (size_t)rounds, sizeof(double), cmp);
				printf("  dev %d %6.1f", d, t[c][p][d][rounds / 2] * 1e6);
			}
			printf("\n");
		}
	return 0;
}
