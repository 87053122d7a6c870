// pubmatch's own helper compiled into lightgbm.wasm next to LightGBM: it reports how many
// bytes the allocator has handed out, so tests can check that freeing every handle returns
// the memory (the WebAssembly memory itself never shrinks).
#include <malloc.h>
#include <stddef.h>

size_t pubmatch_heap_in_use(void) {
  struct mallinfo info = mallinfo();
  return (size_t)info.uordblks;
}
