//! Background work for the UI: a future on the tokio runtime whose result a panel polls
//! each frame. The worker asks for a repaint when it is done, so an idle UI stays idle.

use poll_promise::Promise;
use std::future::Future;

/// Why a task gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskError {
    /// It was cancelled (a newer request replaced it, or the clerk stopped it).
    Cancelled,
    /// It crashed; the text is for the details.
    Crashed(String),
}

crate::engineers_text!(TaskError);

impl TaskError {
    /// In the clerk's language.
    pub fn words(&self) -> String {
        match self {
            TaskError::Cancelled => crate::tr!("err-cancelled"),
            TaskError::Crashed(e) => crate::tr!("err-internal", error = e),
        }
    }
}

/// A task's result whose own error is already the clerk's words, with the task's error
/// said the same way.
pub fn flat<T>(r: Result<Result<T, String>, TaskError>) -> Result<T, String> {
    r.map_err(|e| e.words()).and_then(|r| r)
}

/// Starts background work for the app: the runtime to run it on and the context to
/// repaint when it is done. Only the app's command handler holds one.
#[derive(Clone)]
pub struct Spawner {
    /// The runtime.
    pub rt: tokio::runtime::Handle,
    /// The UI to repaint.
    pub ctx: egui::Context,
}

impl Spawner {
    /// Starts `fut`; the UI is repainted when it finishes.
    pub fn spawn<T: Send + 'static>(
        &self,
        fut: impl Future<Output = T> + Send + 'static,
    ) -> Task<T> {
        Task::spawn(&self.rt, &self.ctx, fut)
    }
}

/// A running piece of work. Its result is `Err` only if the work was cancelled or crashed.
pub struct Task<T: Send + 'static> {
    promise: Promise<Result<T, TaskError>>,
    abort: tokio::task::AbortHandle,
}

impl<T: Send + 'static> Task<T> {
    /// Starts `fut` on `rt`; `ctx` is repainted when it finishes.
    pub fn spawn(
        rt: &tokio::runtime::Handle,
        ctx: &egui::Context,
        fut: impl Future<Output = T> + Send + 'static,
    ) -> Self {
        let (sender, promise) = Promise::new();
        let work = rt.spawn(fut);
        let abort = work.abort_handle();
        let ctx = ctx.clone();
        rt.spawn(async move {
            let result = work.await.map_err(|e| {
                if e.is_cancelled() {
                    TaskError::Cancelled
                } else {
                    TaskError::Crashed(e.to_string())
                }
            });
            sender.send(result);
            ctx.request_repaint();
        });
        Task { promise, abort }
    }

    /// The result, once there is one.
    pub fn ready(&self) -> Option<&Result<T, TaskError>> {
        self.promise.ready()
    }

    /// Takes the result if it is there, else gives the task back.
    pub fn try_take(self) -> Result<Result<T, TaskError>, Self> {
        let abort = self.abort;
        self.promise
            .try_take()
            .map_err(|promise| Task { promise, abort })
    }

    /// Stops the work (its result becomes "cancelled").
    pub fn cancel(&self) {
        self.abort.abort();
    }
}

/// Takes a finished task's result out of `slot`, leaving `None`; leaves a running one.
pub fn take_finished<T: Send + 'static>(
    slot: &mut Option<Task<T>>,
) -> Option<Result<T, TaskError>> {
    let task = slot.take()?;
    match task.try_take() {
        Ok(result) => Some(result),
        Err(task) => {
            *slot = Some(task);
            None
        }
    }
}
