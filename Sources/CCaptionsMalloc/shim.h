// glibc's allocator tuning (mallopt), which the Glibc Swift module does not export.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif
