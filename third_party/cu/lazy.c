// pathflow: loads the CUDA driver at run time instead of linking it, so
// that a program built with cu starts on hosts without the NVIDIA driver.
// See NOTICE.

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy.h"

// The driver's soname, as the NVIDIA driver (and the container toolkit)
// installs it; the unversioned libcuda.so is a development link.
// CU_DRIVER_LIBRARY, when set and not empty, names another file to load (a
// driver outside the loader's path, or a missing one in tests).
static const char driver_library[] = "libcuda.so.1";

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *driver;
static char load_error[512];

static void load(void) {
	const char *library = getenv("CU_DRIVER_LIBRARY");
	if (library == NULL || library[0] == 0) library = driver_library;
	driver = dlopen(library, RTLD_NOW | RTLD_LOCAL);
	if (driver == NULL) {
		const char *e = dlerror();
		snprintf(load_error, sizeof load_error, "%s", e != NULL ? e : library);
		return;
	}
	// The driver is initialised as it is loaded, before any trampoline
	// hands out a function: the copy no longer calls cuInit when the
	// program starts (cu.go), so a program that never calls the driver
	// never pays for it. A failure leaves every call failing with
	// CUDA_ERROR_NOT_INITIALIZED; InitError calls cuInit again and reports
	// its result.
	CUresult (*init)(unsigned int) = (CUresult (*)(unsigned int))dlsym(driver, "cuInit");
	if (init != NULL) init(0);
}

const char *cu_lazy_load_error(void) {
	pthread_once(&load_once, load);
	return driver == NULL ? load_error : NULL;
}

void *cu_lazy_symbol(const char *name) {
	pthread_once(&load_once, load);
	return driver == NULL ? NULL : dlsym(driver, name);
}

CUresult cu_lazy_resolve(void **slot, const char *name, void **fn) {
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (p == NULL) {
		pthread_once(&load_once, load);
		if (driver == NULL) return CUDA_ERROR_NOT_INITIALIZED;
		p = dlsym(driver, name);
		if (p == NULL) return CUDA_ERROR_NOT_FOUND;
		__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	}
	*fn = p;
	return CUDA_SUCCESS;
}
