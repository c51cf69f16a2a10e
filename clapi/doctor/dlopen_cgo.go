//go:build cgo

package doctor

/*
#cgo linux LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

// try_dlopen loads and unloads a library, returning dlerror's message or
// NULL on success. RTLD_LAZY|RTLD_LOCAL is how ICD loaders open vendor
// libraries.
static const char *try_dlopen(const char *name) {
	void *h = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();
		return e ? e : "dlopen failed";
	}
	dlclose(h);
	return NULL;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// dlopenCheck loads the library as an ICD loader would, and unloads it.
func dlopenCheck(name string) error {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if msg := C.try_dlopen(cs); msg != nil {
		return errors.New(C.GoString(msg))
	}
	return nil
}
