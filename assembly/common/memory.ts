// Linear-memory management. The module uses the `stub` runtime (a bump allocator): the engine
// allocates the buffers of a graph / run once through `mem_alloc`, views them from JS as typed
// arrays, and calls `mem_reset` before packing a new graph. No kernel allocates on a hot path.

/** Allocates `bytes` bytes aligned to 16 and returns the pointer. May grow memory (detaching JS views). */
export function mem_alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}

/** Frees every allocation at once (stub runtime). All previously returned pointers become invalid. */
export function mem_reset(): void {
  heap.reset();
}
