//! Background work for the UI: a future on the tokio runtime whose result a panel polls
//! each frame. The worker asks for a repaint when it is done, so an idle UI stays idle.

use poll_promise::Promise;
use std::future::Future;

/// A running piece of work. Its result is `Err` only if the work was cancelled or crashed.
pub struct Task<T: Send + 'static> {
    promise: Promise<Result<T, String>>,
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
                    "cancelled".to_string()
                } else {
                    format!("internal error: {e}")
                }
            });
            sender.send(result);
            ctx.request_repaint();
        });
        Task { promise, abort }
    }

    /// The result, once there is one.
    pub fn ready(&self) -> Option<&Result<T, String>> {
        self.promise.ready()
    }

    /// Takes the result if it is there, else gives the task back.
    pub fn try_take(self) -> Result<Result<T, String>, Self> {
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
pub fn take_finished<T: Send + 'static>(slot: &mut Option<Task<T>>) -> Option<Result<T, String>> {
    let task = slot.take()?;
    match task.try_take() {
        Ok(result) => Some(result),
        Err(task) => {
            *slot = Some(task);
            None
        }
    }
}
