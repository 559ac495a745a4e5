//! The core's errors are the model's ([`bootsmith_model::error`]); what is left here is the
//! one log line every door writes for a refused or failed action.

pub use bootsmith_model::error::*;

/// Log that `action` (`networks::create`) was refused or failed, with the error's code and
/// sentence (which name the record and never a secret): every door calls it, so a refused save,
/// a manager's refused login or write reaches the log however it was asked for.
pub fn log_refusal(action: &str, e: &Error) {
    if e.kind().http_status() >= 500 {
        tracing::error!(action, code = %e.code(), error = %e, "an action failed");
    } else {
        tracing::warn!(action, code = %e.code(), error = %e, "an action was refused");
    }
}
