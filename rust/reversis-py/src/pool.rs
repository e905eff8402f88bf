//! The threads a `VectorEnv` steps on: started once and kept, so that a step does not pay for
//! starting threads, and waiting for the next step by spinning for a while before they sleep,
//! so that it does not pay for waking one either.
//!
//! Measured on the project's 2-core virtual machine: starting and joining two scoped threads
//! took about 120 µs, and a round trip through a condition variable (post a job to a sleeping
//! thread, wait for its answer) about 50 µs, both comparable to a whole step of 1,024 games
//! on two threads, while the same round trip to a spinning thread took 0.1 µs. A worker
//! therefore spins for up to `SPIN` after each job, long enough to span the time learning code
//! takes between two steps, and then sleeps, so that an idle environment costs nothing.
//!
//! The jobs borrow the environment for one step; [`Pool::run`] hands them to threads that
//! outlive the borrow, which the type system cannot check: it is the one `unsafe` of this
//! module, sound because `run` returns only when every job it handed out has finished.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use reversis_core::{Job, StepRunner};

/// How long a worker spins for its next job before it sleeps.
const SPIN: Duration = Duration::from_millis(1);

/// How long a waiting thread spins before it lets other threads run first.
const POLITE: Duration = Duration::from_micros(50);

/// Spins between two looks at the clock (a look costs about as much as a few spins).
const SPINS_PER_LOOK: u32 = 64;

type StaticJob = Box<dyn FnOnce() + Send + 'static>;

/// What the calling thread and one worker share.
struct Slot {
    /// The job of the current step, until the worker takes it.
    job: Mutex<Option<StaticJob>>,
    /// The number of jobs posted, and the number finished: equal when the worker is idle.
    posted: AtomicU64,
    finished: AtomicU64,
    /// Whether the last job finished by panicking.
    panicked: AtomicBool,
    /// Set by the worker before it sleeps; `post` wakes it through `wake` when set.
    sleeping: AtomicBool,
    park: Mutex<()>,
    wake: Condvar,
    stop: AtomicBool,
}

impl Slot {
    fn new() -> Slot {
        Slot {
            job: Mutex::new(None),
            posted: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            panicked: AtomicBool::new(false),
            sleeping: AtomicBool::new(false),
            park: Mutex::new(()),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        }
    }

    fn post(&self, job: StaticJob) {
        *self.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(job);
        // SeqCst on both sides (here and in `wait_for_job`): either the worker sees the new
        // count before it sleeps, or this sees it asleep and wakes it.
        self.posted.fetch_add(1, Ordering::SeqCst);
        if self.sleeping.load(Ordering::SeqCst) {
            // Taking the lock waits until the worker is inside `wait`, so the wake is not lost.
            let _guard = self.park.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_one();
        }
    }

    /// Waits until the job posted `count`-th has finished; whether it panicked.
    fn join(&self, count: u64) -> bool {
        spin_until(|| self.finished.load(Ordering::Acquire) == count, None);
        self.panicked.load(Ordering::Acquire)
    }

    /// The worker's wait for its job number `count`; `false` when the pool is stopping.
    fn wait_for_job(&self, count: u64) -> bool {
        let ready =
            || self.posted.load(Ordering::SeqCst) >= count || self.stop.load(Ordering::SeqCst);
        if !spin_until(ready, Some(SPIN)) {
            let mut guard = self.park.lock().unwrap_or_else(|e| e.into_inner());
            self.sleeping.store(true, Ordering::SeqCst);
            while !ready() {
                guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            self.sleeping.store(false, Ordering::SeqCst);
        }
        !self.stop.load(Ordering::SeqCst)
    }
}

/// Spins until `done()`, for at most `limit` (`None`: however long it takes); whether
/// `done()`.
fn spin_until(done: impl Fn() -> bool, limit: Option<Duration>) -> bool {
    let started = Instant::now();
    loop {
        for _ in 0..SPINS_PER_LOOK {
            if done() {
                return true;
            }
            std::hint::spin_loop();
        }
        let spent = started.elapsed();
        match limit {
            Some(limit) if spent >= limit => return done(),
            // Past the first moments, a waiting thread lets any other thread ready to run on
            // its processor go first (a return at once where there is none).
            _ if spent >= POLITE => std::thread::yield_now(),
            _ => {}
        }
    }
}

fn work(slot: &Slot) {
    let mut count = 1;
    while slot.wait_for_job(count) {
        let job = slot.job.lock().unwrap_or_else(|e| e.into_inner()).take();
        let panicked = job.is_some_and(|job| panic::catch_unwind(AssertUnwindSafe(job)).is_err());
        slot.panicked.store(panicked, Ordering::Release);
        slot.finished.store(count, Ordering::Release);
        count += 1;
    }
}

struct Worker {
    slot: Arc<Slot>,
    thread: Option<JoinHandle<()>>,
}

/// Threads kept from step to step; the calling thread of [`Pool::run`] takes the first job.
#[derive(Default)]
pub struct Pool {
    workers: Vec<Worker>,
    /// The process the workers were started in: a child of `fork` has none of them.
    pid: u32,
    /// Held through `run`, so that two calls at once (the runner is shared) take turns.
    busy: Mutex<()>,
}

impl Pool {
    /// Makes sure there are workers for `jobs` jobs of a step (the calling thread takes one).
    pub fn reserve(&mut self, jobs: usize) {
        let pid = std::process::id();
        if self.pid != pid {
            // The threads of the parent do not exist here; their slots are simply dropped.
            self.workers.clear();
            self.pid = pid;
        }
        while self.workers.len() + 1 < jobs {
            let slot = Arc::new(Slot::new());
            let theirs = Arc::clone(&slot);
            let thread = std::thread::Builder::new()
                .name("reversis-vector".to_string())
                .spawn(move || work(&theirs))
                .ok();
            if thread.is_none() {
                // Out of threads: `run` steps the jobs without a worker on the calling thread.
                break;
            }
            self.workers.push(Worker { slot, thread });
        }
    }
}

impl StepRunner for Pool {
    fn run(&self, jobs: Vec<Job<'_>>) {
        let mut jobs = jobs.into_iter();
        let Some(first) = jobs.next() else {
            return;
        };
        let _turn = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        let mut posted = Vec::with_capacity(self.workers.len());
        let mut extra = Vec::new();
        for job in jobs {
            match self.workers.get(posted.len()) {
                Some(worker) if self.pid == std::process::id() => {
                    // SAFETY: the job borrows data for the lifetime of this call only; the
                    // loop below waits for every job posted here to finish (a panicking job
                    // is caught by its worker and counted as finished) before `run` returns or
                    // unwinds, so the job never runs, nor is dropped, after its borrows end.
                    let job = unsafe { std::mem::transmute::<Job<'_>, StaticJob>(job) };
                    worker.slot.post(job);
                    posted.push(worker.slot.posted.load(Ordering::SeqCst));
                }
                _ => extra.push(job),
            }
        }
        let mut panicked = panic::catch_unwind(AssertUnwindSafe(first)).err();
        for job in extra {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(job)) {
                panicked.get_or_insert(payload);
            }
        }
        let mut worker_panicked = false;
        for (worker, &count) in self.workers.iter().zip(&posted) {
            // A job its worker has not started yet (the worker asleep, or waiting for a
            // processor another program holds) is run here: a step then takes as long as on
            // fewer threads, never longer because a worker could not run.
            let unstarted = worker
                .slot
                .job
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            match unstarted {
                Some(job) => {
                    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(job)) {
                        panicked.get_or_insert(payload);
                    }
                }
                None => worker_panicked |= worker.slot.join(count),
            }
        }
        if let Some(payload) = panicked {
            panic::resume_unwind(payload);
        }
        if worker_panicked {
            panic!("a thread stepping the games panicked");
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let ours = self.pid == std::process::id();
        for worker in &mut self.workers {
            worker.slot.stop.store(true, Ordering::SeqCst);
            let _guard = worker.slot.park.lock().unwrap_or_else(|e| e.into_inner());
            worker.slot.wake.notify_one();
        }
        for worker in &mut self.workers {
            if let (true, Some(thread)) = (ours, worker.thread.take()) {
                // A worker only ever returns or runs a job to its end.
                let _ = thread.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_before_run_returns() {
        let mut pool = Pool::default();
        pool.reserve(4);
        for round in 0..200usize {
            let mut cells = vec![0usize; 4];
            let jobs: Vec<Job<'_>> = cells
                .iter_mut()
                .enumerate()
                .map(|(k, cell)| Box::new(move || *cell += k + round) as Job<'_>)
                .collect();
            pool.run(jobs);
            assert_eq!(cells, (0..4).map(|k| k + round).collect::<Vec<_>>());
            if round % 50 == 0 {
                // Long enough for the workers to go to sleep: the next post must wake them.
                std::thread::sleep(SPIN * 3);
            }
        }
    }

    #[test]
    fn more_jobs_than_workers_run_on_the_calling_thread() {
        let mut pool = Pool::default();
        pool.reserve(2);
        let mut cells = [0u8; 5];
        let jobs: Vec<Job<'_>> = cells
            .iter_mut()
            .map(|cell| Box::new(move || *cell = 1) as Job<'_>)
            .collect();
        pool.run(jobs);
        assert_eq!(cells, [1; 5]);
    }

    #[test]
    fn a_panicking_job_is_raised_after_every_job_has_run() {
        let mut pool = Pool::default();
        pool.reserve(3);
        let mut cells = [0u8; 3];
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            let jobs: Vec<Job<'_>> = cells
                .iter_mut()
                .enumerate()
                .map(|(k, cell)| {
                    Box::new(move || {
                        *cell = 1;
                        assert!(k != 1, "job 1 fails");
                    }) as Job<'_>
                })
                .collect();
            pool.run(jobs);
        }));
        assert!(caught.is_err());
        assert_eq!(cells, [1; 3]);
        // The pool goes on working.
        let mut again = [0u8; 3];
        pool.run(
            again
                .iter_mut()
                .map(|c| Box::new(move || *c = 2) as Job<'_>)
                .collect(),
        );
        assert_eq!(again, [2; 3]);
    }
}
