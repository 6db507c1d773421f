// Timing and memory probes shared by the RoutingKit harnesses: wall time,
// the process's CPU time and its peak resident set, as the pathflow side
// reports them (internal/cputime, the manifests' peak_rss_bytes).
#pragma once

#include <sys/resource.h>

#include <chrono>

static double wall_now() {
	return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double cpu_now() {
	rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static long peak_rss_mb() {
	rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}
