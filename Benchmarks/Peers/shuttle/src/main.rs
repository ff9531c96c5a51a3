//! The harness speed scenarios of `Benchmarks/Sources/Workloads/Harness/HarnessScenarios.swift`,
//! written for Shuttle 0.6.1, so that `BenchmarkTable --harness-speed --peer <this binary>` can
//! sample both side by side in one run.
//!
//! It reads one request a line on standard input, `<scenario> <strategy> <schedules> <seed>`,
//! explores the scenario that many schedules and answers one line,
//! `<schedules> <elapsed nanoseconds> <heap allocations>`, timing and counting only the
//! exploration. Scenarios: `locked-increments`, `lost-update`, `actor`; strategies: `random`,
//! `pct` (depth 3, the harness's default).

use shuttle::scheduler::{PctScheduler, RandomScheduler, Scheduler};
use shuttle::sync::atomic::{AtomicUsize, Ordering};
use shuttle::sync::Mutex;
use shuttle::{thread, Config, Runner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::VecDeque;
use std::future::Future;
use std::io::{BufRead, Write};
use std::pin::Pin;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// Counts heap allocations (reallocations included) for the answer's third column.
struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// (a) Three threads each add 1 five times to a counter under a mutex.
fn locked_increments() {
    let counter = Arc::new(Mutex::new(0usize));
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let counter = Arc::clone(&counter);
            thread::spawn(move || {
                for _ in 0..5 {
                    *counter.lock().unwrap() += 1;
                }
            })
        })
        .collect();
    for handle in threads {
        handle.join().unwrap();
    }
    assert_eq!(*counter.lock().unwrap(), 15);
}

/// (b) Two threads each add 1 to an atomic with a load then a store; unchecked, like the
/// harness row, so that every exploration runs its whole budget.
fn lost_update() {
    let counter = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let counter = Arc::clone(&counter);
            thread::spawn(move || {
                let value = counter.load(Ordering::SeqCst);
                counter.store(value + 1, Ordering::SeqCst);
            })
        })
        .collect();
    for handle in threads {
        handle.join().unwrap();
    }
}

/// What a waiting future needs: the value once it is there, or the waker to call then.
struct Slot<T> {
    value: Option<T>,
    waker: Option<Waker>,
}

/// A one-value channel between tasks. Shuttle runs one task at a time, so the standard
/// library's mutex here is never contended and adds no scheduling point: the tasks switch
/// only where a future is pending, as jobs do on the harness's executor.
struct Cell<T>(std::sync::Mutex<Slot<T>>);

impl<T> Cell<T> {
    fn new() -> Arc<Self> {
        Arc::new(Cell(std::sync::Mutex::new(Slot { value: None, waker: None })))
    }

    fn put(&self, value: T) {
        let waker = {
            let mut slot = self.0.lock().unwrap();
            slot.value = Some(value);
            slot.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// Waits until the cell holds a value, and takes it.
struct Take<T>(Arc<Cell<T>>);

impl<T> Future for Take<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<T> {
        let mut slot = (self.0).0.lock().unwrap();
        match slot.value.take() {
            Some(value) => Poll::Ready(value),
            None => {
                slot.waker = Some(context.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// The actor: a task that drains a mailbox of calls, each answered through its own cell.
struct Mailbox {
    calls: std::sync::Mutex<Slot<VecDeque<Arc<Cell<usize>>>>>,
}

impl Mailbox {
    /// Sends one call and waits for its answer.
    async fn call(&self) -> usize {
        let reply = Cell::new();
        let waker = {
            let mut calls = self.calls.lock().unwrap();
            calls.value.get_or_insert_with(VecDeque::new).push_back(Arc::clone(&reply));
            calls.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
        Take(reply).await
    }

    /// Runs the actor until it has answered `count` calls.
    async fn serve(self: Arc<Self>, count: usize) {
        let mut value = 0;
        for _ in 0..count {
            let reply = Receive(&self).await;
            value += 1;
            reply.put(value);
        }
    }
}

/// Waits for the mailbox's next call.
struct Receive<'a>(&'a Mailbox);

impl Future for Receive<'_> {
    type Output = Arc<Cell<usize>>;

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Self::Output> {
        let mut calls = self.0.calls.lock().unwrap();
        match calls.value.as_mut().and_then(VecDeque::pop_front) {
            Some(call) => Poll::Ready(call),
            None => {
                calls.waker = Some(context.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// Three tasks each call one actor twice.
fn actor() {
    let mailbox = Arc::new(Mailbox { calls: std::sync::Mutex::new(Slot { value: None, waker: None }) });
    let actor = shuttle::future::spawn(Arc::clone(&mailbox).serve(6));
    let callers: Vec<_> = (0..3)
        .map(|_| {
            let mailbox = Arc::clone(&mailbox);
            shuttle::future::spawn(async move {
                for _ in 0..2 {
                    mailbox.call().await;
                }
            })
        })
        .collect();
    shuttle::future::block_on(async move {
        for caller in callers {
            caller.await.unwrap();
        }
        actor.await.unwrap();
    });
}

fn explore(scenario: fn(), scheduler: impl Scheduler + 'static) {
    Runner::new(scheduler, Config::new()).run(scenario);
}

fn answer(request: &str) -> Result<String, String> {
    let fields: Vec<&str> = request.split_whitespace().collect();
    let [scenario, strategy, schedules, seed] = fields[..] else {
        return Err(format!("expected `<scenario> <strategy> <schedules> <seed>`, got `{request}`"));
    };
    let scenario: fn() = match scenario {
        "locked-increments" => locked_increments,
        "lost-update" => lost_update,
        "actor" => actor,
        other => return Err(format!("unknown scenario `{other}`: locked-increments, lost-update or actor")),
    };
    let schedules: usize = schedules.parse().map_err(|_| format!("schedules `{schedules}` is not a count"))?;
    let seed: u64 = seed.parse().map_err(|_| format!("seed `{seed}` is not an unsigned integer"))?;
    let allocations = ALLOCATIONS.load(std::sync::atomic::Ordering::Relaxed);
    let start = Instant::now();
    match strategy {
        "random" => explore(scenario, RandomScheduler::new_from_seed(seed, schedules)),
        "pct" => explore(scenario, PctScheduler::new_from_seed(seed, 3, schedules)),
        other => return Err(format!("unknown strategy `{other}`: random or pct")),
    }
    let elapsed = start.elapsed().as_nanos();
    let allocations = ALLOCATIONS.load(std::sync::atomic::Ordering::Relaxed) - allocations;
    Ok(format!("{schedules} {elapsed} {allocations}"))
}

fn main() {
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("reading a request");
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer(&line).unwrap_or_else(|error| format!("error: {error}"));
        let mut out = stdout.lock();
        writeln!(out, "{reply}").expect("writing an answer");
        out.flush().expect("writing an answer");
    }
}
