//go:build cuda

#include "driver.h"

#define DRIVER_DEFINE(f) __typeof__(f) *driver_##f;
DRIVER_FUNCTIONS(DRIVER_DEFINE)

// DRIVER_SYMBOL is the symbol cuda.h maps f to, as a string.
#define DRIVER_SYMBOL(f) DRIVER_STRING(f)
#define DRIVER_STRING(f) #f
#define DRIVER_SLOT(f) {DRIVER_SYMBOL(f), (void **)&driver_##f},

static const struct driver_slot driver_slots[] = {DRIVER_FUNCTIONS(DRIVER_SLOT)};

const struct driver_slot *driver_slot_list(int *count) {
	*count = sizeof driver_slots / sizeof driver_slots[0];
	return driver_slots;
}
