// Linear-memory management. The module uses the `stub` runtime (a bump allocator): the engine
// allocates the buffers of a graph / run once through `mem_alloc`, views them from JS as typed
// arrays, and calls `mem_reset` before packing a new graph. No kernel allocates on a hot path.

/** Allocates `bytes` bytes aligned to 16 and returns the pointer. May grow memory (detaching JS views). */
export function mem_alloc(bytes: usize): usize {
  const ptr = heap.alloc(bytes);
  // The stub's bump pointer wraps past 4 GiB instead of failing: what it hands out there is not
  // memory (or overlaps earlier buffers), so running out of address space must stop here.
  if (<u64>ptr + <u64>bytes > <u64>memory.size() << 16) throw new Error('out of memory: the 4 GiB WebAssembly address space is used up');
  return ptr;
}

/** Frees every allocation at once (stub runtime). All previously returned pointers become invalid. */
export function mem_reset(): void {
  heap.reset();
}
