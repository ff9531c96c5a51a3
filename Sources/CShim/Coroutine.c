// User-space context switches between coroutines, for the harness's threads.
#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CShim.h"
#include "CShimBuild.h"

#if defined(__APPLE__)
#elif defined(__linux__)
#include <link.h>
#else
#error "Coroutine.c: unsupported platform (the task runtime's thread-local block is found per platform)"
#endif

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

// Exported by the Swift runtime (libswiftCore): the concurrency runtime calls them as a task
// leaves and enters a thread, so that the accesses the task has in progress travel with it.
extern void swift_task_exitThreadLocalContext(char *state);
extern void swift_task_enterThreadLocalContext(char *state);

#if defined(__APPLE__)
#define CSHIM_SYMBOL(name) "_" #name
#else
#define CSHIM_SYMBOL(name) #name
#endif

#if (defined(__x86_64__) || defined(__aarch64__) || defined(__arm64__)) && !defined(CSHIM_SANITIZED)
#define CSHIM_COROUTINES 1

/// Pushes the callee-saved registers, stores the stack pointer in `*save`, loads `load`
/// and pops the registers saved there; returns into the resumed coroutine.
void cshim_context_swap(void **save, void *load);
/// The first frame of a coroutine: calls the entry in a callee-saved register with the
/// argument in another; the entry never returns.
void cshim_context_start(void);

#if defined(__x86_64__)
// Frame, from the saved stack pointer up: MXCSR and the x87 control word (8 bytes), r15,
// r14, r13, r12, rbx, rbp, the return address.
__asm__(".text\n"
        ".globl " CSHIM_SYMBOL(cshim_context_swap) "\n"
        CSHIM_SYMBOL(cshim_context_swap) ":\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".globl " CSHIM_SYMBOL(cshim_context_start) "\n"
        CSHIM_SYMBOL(cshim_context_start) ":\n"
        "    .cfi_startproc\n"
        "    .cfi_undefined rip\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        "    .cfi_endproc\n");

enum { CSHIM_FRAME_WORDS = 8 };

static void *cshim_context_initial(uintptr_t *top, void (*entry)(void *), void *argument) {
    // After the first swap returns into `cshim_context_start`, the stack pointer is `top - 16`:
    // 16-byte aligned before its call, as the ABI asks.
    uintptr_t *frame = top - 2 - CSHIM_FRAME_WORDS;
    frame[0] = 0x1F80 | ((uintptr_t)0x037F << 32); // default MXCSR, default x87 control word
    frame[1] = 0;                                   // r15
    frame[2] = 0;                                   // r14
    frame[3] = (uintptr_t)entry;                    // r13
    frame[4] = (uintptr_t)argument;                 // r12
    frame[5] = 0;                                   // rbx
    frame[6] = 0;                                   // rbp: the end of the frame chain
    frame[7] = (uintptr_t)cshim_context_start;      // returned to by the first swap
    return frame;
}
#else
// Frame, from the saved stack pointer up: x19–x28, x29 (frame pointer), x30 (link
// register), d8–d15, 16 bytes of padding.
__asm__(".text\n"
        ".globl " CSHIM_SYMBOL(cshim_context_swap) "\n"
        ".p2align 2\n"
        CSHIM_SYMBOL(cshim_context_swap) ":\n"
        "    sub sp, sp, #176\n"
        "    stp x19, x20, [sp, #0]\n"
        "    stp x21, x22, [sp, #16]\n"
        "    stp x23, x24, [sp, #32]\n"
        "    stp x25, x26, [sp, #48]\n"
        "    stp x27, x28, [sp, #64]\n"
        "    stp x29, x30, [sp, #80]\n"
        "    stp d8, d9, [sp, #96]\n"
        "    stp d10, d11, [sp, #112]\n"
        "    stp d12, d13, [sp, #128]\n"
        "    stp d14, d15, [sp, #144]\n"
        "    mov x9, sp\n"
        "    str x9, [x0]\n"
        "    mov sp, x1\n"
        "    ldp x19, x20, [sp, #0]\n"
        "    ldp x21, x22, [sp, #16]\n"
        "    ldp x23, x24, [sp, #32]\n"
        "    ldp x25, x26, [sp, #48]\n"
        "    ldp x27, x28, [sp, #64]\n"
        "    ldp x29, x30, [sp, #80]\n"
        "    ldp d8, d9, [sp, #96]\n"
        "    ldp d10, d11, [sp, #112]\n"
        "    ldp d12, d13, [sp, #128]\n"
        "    ldp d14, d15, [sp, #144]\n"
        "    add sp, sp, #176\n"
        "    ret\n"
        ".globl " CSHIM_SYMBOL(cshim_context_start) "\n"
        ".p2align 2\n"
        CSHIM_SYMBOL(cshim_context_start) ":\n"
        "    .cfi_startproc\n"
        "    .cfi_undefined x30\n"
        "    mov x0, x19\n"
        "    blr x20\n"
        "    brk #1\n"
        "    .cfi_endproc\n");

enum { CSHIM_FRAME_WORDS = 22 };

static void *cshim_context_initial(uintptr_t *top, void (*entry)(void *), void *argument) {
    uintptr_t *frame = top - CSHIM_FRAME_WORDS;
    memset(frame, 0, CSHIM_FRAME_WORDS * sizeof(uintptr_t));
    frame[0] = (uintptr_t)argument;            // x19
    frame[1] = (uintptr_t)entry;               // x20
    frame[11] = (uintptr_t)cshim_context_start; // x30: returned to by the first swap
    return frame;
}
#endif
#endif

bool cshim_coroutines_supported(void) {
#if defined(CSHIM_COROUTINES)
    return true;
#else
    return false;
#endif
}

// MARK: The task runtime's thread-local block

#if defined(CSHIM_COROUTINES) && defined(__linux__)
/// The size of the concurrency runtime's thread-local block; 0 until found, -1 when it is
/// not there or too large to move with a coroutine.
static _Atomic long cshim_task_block_size;
/// The calling OS thread's copy of that block; found on the thread's first switch.
static __thread char *cshim_task_block;

/// What `dl_iterate_phdr` is asked to find: the concurrency runtime's block on the calling
/// thread, and its size.
typedef struct {
    char *block;
    long size;
} cshim_task_block_search;

static int cshim_find_task_block(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    if (info->dlpi_name == NULL || strstr(info->dlpi_name, "libswift_Concurrency.") == NULL) return 0;
    cshim_task_block_search *search = data;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        if (info->dlpi_phdr[index].p_type == PT_TLS) {
            search->block = info->dlpi_tls_data;
            search->size = (long)info->dlpi_phdr[index].p_memsz;
        }
    }
    return 1;
}

/// Whether the `size` bytes at `bytes` are all zero.
static inline bool cshim_is_zero(const char *bytes, size_t size) {
    unsigned char any = 0;
    for (size_t index = 0; index < size; index++) any |= (unsigned char)bytes[index];
    return any == 0;
}

/// The calling thread's block of the concurrency runtime, or NULL when coroutines cannot
/// carry it.
static char *cshim_task_block_here(void) {
    if (cshim_task_block != NULL) return cshim_task_block;
    long known = cshim_task_block_size;
    if (known < 0) return NULL;
    cshim_task_block_search search = {NULL, -1};
    dl_iterate_phdr(cshim_find_task_block, &search);
    bool fits = search.block != NULL && search.size > 0 && (size_t)search.size <= CSHIM_TASK_BLOCK_BYTES;
    cshim_task_block_size = fits ? search.size : -1;
    cshim_task_block = fits ? search.block : NULL;
    return cshim_task_block;
}
#endif

bool cshim_coroutines_carry_tasks(void) {
#if defined(CSHIM_COROUTINES) && defined(__linux__)
    return cshim_task_block_here() != NULL;
#else
    return false;
#endif
}

void *cshim_coroutine_stack_create(size_t size) {
    size_t page = cshim_page_size();
    size_t rounded = (size + page - 1) / page * page;
    void *mapping = mmap(NULL, rounded + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return NULL;
    if (mprotect(mapping, page, PROT_NONE) != 0) {
        int error = errno;
        munmap(mapping, rounded + page);
        errno = error;
        return NULL;
    }
    return (char *)mapping + page;
}

void cshim_coroutine_stack_destroy(void *stack, size_t size) {
    size_t page = cshim_page_size();
    size_t rounded = (size + page - 1) / page * page;
    munmap((char *)stack - page, rounded + page);
}

void cshim_coroutine_prepare(cshim_coroutine *coroutine, void *stack, size_t size,
                             void (*entry)(void *), void *argument) {
    memset(coroutine, 0, sizeof *coroutine);
#if defined(CSHIM_COROUTINES)
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    coroutine->stack_pointer = cshim_context_initial((uintptr_t *)top, entry, argument);
#else
    (void)stack;
    (void)size;
    (void)entry;
    (void)argument;
#endif
}

void cshim_coroutine_switch(cshim_coroutine *from, cshim_coroutine *to) {
#if defined(CSHIM_COROUTINES)
    from->saved_errno = errno;
    from->seam_slot = cshim_seam_current();
    swift_task_exitThreadLocalContext((char *)from->exclusivity);
#if defined(__linux__)
    // The concurrency runtime's per-thread state (the running task, the executor it runs
    // on) moves out with the coroutine, as the exclusivity set does: the one switched to
    // finds its own, or a new thread's (zeros). A coroutine that runs no task has an empty
    // block, which it neither saves nor restores: the one switched to finds it empty, as it
    // must, and so does this one when it is switched back to (whoever switches out empties
    // the block).
    char *tasks = cshim_task_block_here();
    bool carried = false;
    if (tasks != NULL && !cshim_is_zero(tasks, (size_t)cshim_task_block_size)) {
        carried = true;
        memcpy(from->tasks, tasks, (size_t)cshim_task_block_size);
        memset(tasks, 0, (size_t)cshim_task_block_size);
    }
#endif
    cshim_context_swap(&from->stack_pointer, to->stack_pointer);
#if defined(__linux__)
    if (carried) memcpy(tasks, from->tasks, (size_t)cshim_task_block_size);
#endif
    swift_task_enterThreadLocalContext((char *)from->exclusivity);
    cshim_seam_set_current(from->seam_slot);
    errno = from->saved_errno;
#else
    (void)from;
    (void)to;
    abort();
#endif
}
