#pragma once
// Thread-local variables on the hot path of every op (grad mode, the allocator's per-thread lists,
// the engine's per-thread state). In a shared library a plain thread_local is reached through a
// call to __tls_get_addr on each access; the initial-exec model makes it one load from the thread
// pointer. It takes static TLS space, which the loader reserves a little of for libraries opened
// at run time, so only small variables (flags and pointers) are marked.
#if defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define ENGINE_FAST_TLS __attribute__((tls_model("initial-exec")))
#else
#define ENGINE_FAST_TLS
#endif
